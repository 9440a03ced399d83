/**
 * The typed client of the oceancode HTTP API 0.1.0, generated from GET /doc
 * (extensions/serve/client/generate.ts). Do not edit: regenerate with `node dist/extensions/serve/client/write.js`.
 */
import { ClientBase, type CallOptions, type ServerSentEvent } from "./base.js";

export { ClientHttpError, type CallOptions, type ClientOptions, type ServerSentEvent } from "./base.js";

export type HooksAddAnswerSource = {
  path: string;
  tier: "local" | "repo" | "user" | "plugin" | "bundled";
  ecosystem: string;
  plugin?: string;
  status: "loaded" | "held: everything off" | "held: untrusted" | "held: disabled plugin" | "unreadable" | "invalid";
  error?: string;
  /** handlers of a type or event this runner does not implement */
  skipped: number;
  shared_with_claude_code: boolean;
  handlers: Array<HooksAddAnswerSourceHandler>;
};

export type HooksAddAnswerSourceHandler = {
  event: "SessionStart" | "SessionEnd" | "UserPromptSubmit" | "PreToolUse" | "PostToolUse" | "PostToolUseFailure" | "PermissionDenied" | "Stop" | "SubagentStop";
  /** "" = every tool or source */
  matcher: string;
  type: "command" | "http";
  command?: string;
  url?: string;
  /** seconds */
  timeout?: number;
};

export type McpConnectAnswer = {
  name: string;
  qualified_name?: string;
  status: "connected" | "connecting" | "needs-auth" | "failed" | "disabled" | "untrusted" | "shadowed" | "refused";
  reason?: string;
  kind: "stdio" | "remote";
  transport: "stdio" | "http" | "sse";
  provenance: {
    tier: string;
    source: string;
  };
  trusted: boolean;
  enabled: boolean;
  tools: number;
  logged_in?: boolean;
};

export type PermissionRuleAddAnswer = {
  /** lowest precedence first: the last rule that matches decides */
  rules: Array<PermissionRuleAddAnswerRule>;
  /** where POST /permission/rules adds a rule */
  file: string;
  /** malformed rules skipped, settings held */
  warnings: Array<string>;
};

export type PermissionRuleAddAnswerRule = {
  /** as written: <tool> <pattern> <action> */
  rule: string;
  tool: string;
  pattern: string;
  action: "allow" | "ask" | "deny";
  /** default | global | project | managed | requirements | claude | shell | mode | session */
  layer: string;
  file?: string;
  /** POST /permission/rules/remove can take it out (it is in .oceancode/oceancode.json) */
  removable?: boolean;
};

export type PluginEnableAnswer = {
  name: string;
  version: string;
  marketplace?: string;
  enabled: boolean;
  /** its hooks and MCP servers may run */
  trusted: boolean;
  source: "oceancode" | "claude-code";
  path: string;
};

export type SessionChangesAnswerFile = {
  /** project-relative (absolute when outside the project) */
  path: string;
  status: "added" | "modified" | "deleted" | "unchanged";
  /** the file on disk is not what the session last wrote (undo/redo would ask for force) */
  changedOutside: boolean;
  /** why no diff or counts are given */
  withheld?: "outside_project" | "secret_file" | "binary" | "too_large";
  additions?: number;
  deletions?: number;
  /** unified diff (GET /session/{id}/diff only) */
  diff?: string;
};

export type SessionCreateAnswer = {
  id: string;
  parentId?: string;
  cwd: string;
  model: string;
  createdAt: number;
  title?: string;
  overrides?: Record<string, unknown>;
  /** held open by this server */
  open?: boolean;
  /** the running turn's id */
  running?: string;
  /** turns waiting behind it */
  queued?: number;
};

export type SessionPinAnswer = {
  id: string;
  /** the session is pinned now (retention keeps it) */
  pinned: boolean;
  /** false: it already was (pin) or was not (unpin) */
  changed: boolean;
};

export type SessionRedoAnswer = {
  ok: true;
  from: number;
  to: number;
  restored: Array<string>;
  removed: Array<string>;
};

export type WorkflowRunGetAnswerBody = {
  type: "workflow_updated" | "goal_updated";
  run_id: string;
  workflow: string;
  seq: number;
  at: string;
  status: string;
  terminal: boolean;
  budget: {
    limit?: number | null;
    spent?: number;
  };
};

export class OceancodeClient extends ClientBase {

  /** GET /agent — every agent found (every tier and ecosystem, then the built-in), as the agent tool offers them */
  agentList(opts: CallOptions = {}): Promise<{
    agents: Array<{
      name: string;
      /** what the model passes as subagent_type */
      qualifiedName: string;
      id: string;
      tier: string;
      ecosystem: string;
      plugin?: string;
      /** the agent file; empty for the built-in */
      file: string;
      description: string;
      /** as written in the file */
      model?: string;
      /** the model may start it */
      invocable: boolean;
      shadowed: boolean;
      /** its file is trusted (an untrusted agent cannot pick a model) */
      trusted: boolean;
      tools: {
        mode: "all" | "allow" | "deny";
        names?: Array<string>;
      };
      warning?: string;
    }>;
  }> {
    return this.call("GET", "/agent", {}, opts);
  }

  /** DELETE /auth/{provider} — forget the provider's key stored in auth.json (a key in the server's environment stays: it is the environment's) */
  authRemoveKey(input: {
    provider: string;
  }, opts: CallOptions = {}): Promise<{
    provider: string;
    /** a key is there (the env var or auth.json) */
    configured: boolean;
    /** where the key in use comes from (the env var wins) */
    source?: "env" | "auth.json";
    /** the env var that holds this provider's key */
    variable: string;
    /** auth.json held a key for it */
    removed?: boolean;
  }> {
    return this.call("DELETE", "/auth/{provider}", { path: { "provider": input["provider"] } }, opts);
  }

  /** POST /auth/{provider} — store a provider's API key in auth.json (mode 0600), as `oceancode key <provider> <key>`; write-only: no route answers it back */
  authSetKey(input: {
    provider: string;
    body: {
      key: string;
    };
  }, opts: CallOptions = {}): Promise<{
    provider: string;
    /** a key is there (the env var or auth.json) */
    configured: boolean;
    /** where the key in use comes from (the env var wins) */
    source?: "env" | "auth.json";
    /** the env var that holds this provider's key */
    variable: string;
    note?: string;
  }> {
    return this.call("POST", "/auth/{provider}", { path: { "provider": input["provider"] }, body: input.body }, opts);
  }

  /** GET /auth — which providers have an API key and where it comes from (the env var or auth.json); keys are never answered */
  authStatus(opts: CallOptions = {}): Promise<{
    providers: Array<{
      provider: string;
      /** a key is there (the env var or auth.json) */
      configured: boolean;
      /** where the key in use comes from (the env var wins) */
      source?: "env" | "auth.json";
      /** the env var that holds this provider's key */
      variable: string;
    }>;
    /** the auth.json path */
    file: string;
  }> {
    return this.call("GET", "/auth", {}, opts);
  }

  /** GET /command — the slash commands a person may type: the extensions' (/help, /undo, ...) and the enabled user-invocable skills and commands */
  commandList(opts: CallOptions = {}): Promise<{
    commands: Array<{
      /** typed as /<name> */
      name: string;
      usage: string;
      summary: string;
      aliases?: Array<string>;
      /** the extension id, or skill / command for a skills item */
      source: string;
    }>;
  }> {
    return this.call("GET", "/command", {}, opts);
  }

  /** GET /config — the effective config with provenance (the winning layer and file of every key), as `oceancode inspect` shows it */
  configGet(opts: CallOptions = {}): Promise<{
    keys: Array<{
      /** dotted */
      key: string;
      /** the effective value (URL passwords and secret-named keys shown as ***) */
      value?: unknown;
      /** default, global, project, env, managed, host or requirements */
      layer: string;
      /** the file, $VARIABLE, --flag or (built-in) it came from */
      source: string;
    }>;
    /** keys an untrusted project file set and that were held back */
    held: Array<{
      key: string;
      file: string;
    }>;
    /** the file PATCH /config writes for each scope */
    files: {
      user: string;
      project: string;
    };
  }> {
    return this.call("GET", "/config", {}, opts);
  }

  /** PATCH /config — change the user or the project config file (validated against the sections' schemas; a project file git tracks may not widen what the user's config allows); read at the server's next start */
  configPatch(input: {
    body: {
      scope: "user" | "project";
      /** dotted key -> JSON value; null removes the key */
      set: Record<string, unknown>;
    };
  }, opts: CallOptions = {}): Promise<{
    scope: string;
    file: string;
    keys: Array<string>;
    applies: "next_start";
  }> {
    return this.call("PATCH", "/config", { body: input.body }, opts);
  }

  /** GET /doctor — the health checks `oceancode doctor` prints (config files, extensions, requirements, data dir; ?storage=true: the database too), one object per line */
  doctor(input: {
    /** also the database (as --storage) */
    storage?: boolean;
  } = {}, opts: CallOptions = {}): Promise<{
    /** no check is FAIL (the CLI's DOCTOR_OK) */
    ok: boolean;
    problems: number;
    checks: Array<{
      status: "ok" | "info" | "warn" | "FAIL";
      check: string;
      detail: string;
    }>;
  }> {
    return this.call("GET", "/doctor", { query: { "storage": input["storage"] } }, opts);
  }

  /** GET /event — every session's events (SSE); Last-Event-ID replays what was missed */
  eventStream(input: {
    /** like the Last-Event-ID header */
    lastEventId?: number;
  } = {}, opts: CallOptions & { lastEventId?: string; reconnect?: boolean } = {}): AsyncGenerator<ServerSentEvent<unknown>> {
    return this.stream("/event", {}, opts);
  }

  /** GET /file/find — project files whose relative path fuzzy-matches the query, best first (.gitignore honoured) */
  fileFind(input: {
    query: string;
    limit?: number;
  }, opts: CallOptions = {}): Promise<{
    query: string;
    files: Array<{
      path: string;
      /** 0..1, higher is closer */
      score: number;
    }>;
    /** the project has more files than one search walks */
    capped: boolean;
  }> {
    return this.call("GET", "/file/find", { query: { "query": input["query"], "limit": input["limit"] } }, opts);
  }

  /** GET /file/list — one project directory's entries (directories first); links leading outside the project are left out */
  fileList(input: {
    /** project-relative, `/`-separated; empty: the project root */
    path?: string;
  } = {}, opts: CallOptions = {}): Promise<{
    path: string;
    entries: Array<{
      name: string;
      path: string;
      type: "file" | "directory";
      size?: number;
    }>;
    truncated: boolean;
  }> {
    return this.call("GET", "/file/list", { query: { "path": input["path"] } }, opts);
  }

  /** GET /file/content — a project text file, at most max_bytes of it (.env files, binary files and paths leading outside the project are refused) */
  fileRead(input: {
    /** project-relative, `/`-separated; empty: the project root */
    path: string;
    max_bytes?: number;
  }, opts: CallOptions = {}): Promise<{
    path: string;
    /** the whole file's size in bytes */
    size: number;
    truncated: boolean;
    content: string;
  }> {
    return this.call("GET", "/file/content", { query: { "path": input["path"], "max_bytes": input["max_bytes"] } }, opts);
  }

  /** POST /goal — Launch goal mode (Plan -> Work -> Verify) on an objective in the server's process; its goal_updated bodies at /workflow/runs/:id/event */
  goalRun(input: {
    body: {
      objective: string;
      /** model calls the run may make (each model request of its sessions counts 1) */
      budget?: number;
      /** provider/model of the run's sessions */
      model?: string;
    };
  }, opts: CallOptions = {}): Promise<{
    run_id: string;
  }> {
    return this.call("POST", "/goal", { body: input.body }, opts);
  }

  /** GET /health — the server is up: its version, its instance id, and the sessions it holds open (claims on); 503 while its fleet database is unreachable */
  health(opts: CallOptions = {}): Promise<{
    ok: boolean;
    version: string;
    /** how many sessions this instance holds */
    sessions: number;
    /** this instance's id ($OC_INSTANCE_ID, or generated at start) */
    instance: string;
    /** the ids of the sessions this instance holds claims on */
    claims: Array<string>;
  }> {
    return this.call("GET", "/health", {}, opts);
  }

  /** POST /hooks — Add a command handler to one of Claude Code's settings files (scope user, project or local), as `oceancode hooks add` does */
  hooksAdd(input: {
    body: {
      event: "SessionStart" | "SessionEnd" | "UserPromptSubmit" | "PreToolUse" | "PostToolUse" | "PostToolUseFailure" | "PermissionDenied" | "Stop" | "SubagentStop";
      /** a regular expression; absent or "" = every tool or source */
      matcher?: string;
      command: string;
      /** seconds */
      timeout?: number;
      /** user: ~/.claude/settings.json; project: .claude/settings.json; local: .claude/settings.local.json */
      scope?: "user" | "project" | "local";
    };
  }, opts: CallOptions = {}): Promise<{
    /** the project's repo tier is trusted (its hooks run) */
    repo_trusted: boolean;
    sources: Array<HooksAddAnswerSource>;
  }> {
    return this.call("POST", "/hooks", { body: input.body }, opts);
  }

  /** GET /hooks — Every hook source (loaded or held) and its handlers, and whether the repo tier is trusted (what `oceancode hooks list --json` prints) */
  hooksList(opts: CallOptions = {}): Promise<{
    /** the project's repo tier is trusted (its hooks run) */
    repo_trusted: boolean;
    sources: Array<HooksAddAnswerSource>;
  }> {
    return this.call("GET", "/hooks", {}, opts);
  }

  /** POST /hooks/reload — Re-read every hook source now (what /hooks reload does) */
  hooksReload(opts: CallOptions = {}): Promise<{
    /** the project's repo tier is trusted (its hooks run) */
    repo_trusted: boolean;
    sources: Array<HooksAddAnswerSource>;
  }> {
    return this.call("POST", "/hooks/reload", {}, opts);
  }

  /** POST /hooks/remove — Remove a command handler from a settings file (`path`: one of the three settings files, as GET /hooks lists it; `target`: the handler's command) */
  hooksRemove(input: {
    body: {
      path: string;
      event: "SessionStart" | "SessionEnd" | "UserPromptSubmit" | "PreToolUse" | "PostToolUse" | "PostToolUseFailure" | "PermissionDenied" | "Stop" | "SubagentStop";
      /** a regular expression; absent or "" = every tool or source */
      matcher?: string;
      target: string;
    };
  }, opts: CallOptions = {}): Promise<{
    /** the project's repo tier is trusted (its hooks run) */
    repo_trusted: boolean;
    sources: Array<HooksAddAnswerSource>;
  }> {
    return this.call("POST", "/hooks/remove", { body: input.body }, opts);
  }

  /** GET /log — the server's log as it is written (SSE, event `log`, data: one redacted JSON log line); ?recent=n first sends the last n lines */
  logTail(input: {
    /** earlier lines to send first */
    recent?: number;
  } = {}, opts: CallOptions & { lastEventId?: string; reconnect?: boolean } = {}): AsyncGenerator<ServerSentEvent<unknown>> {
    return this.stream("/log", {}, opts);
  }

  /** DELETE /mcp/{name}/auth — forget a server's stored OAuth login (logout); the server is re-dialed and reads needs-auth */
  mcpAuthDelete(input: {
    name: string;
  }, opts: CallOptions = {}): Promise<unknown> {
    return this.call("DELETE", "/mcp/{name}/auth", { path: { "name": input["name"] } }, opts);
  }

  /** POST /mcp/{name}/auth — start an OAuth login for a remote server: answers the URL to open; the login ends when the browser comes back, then the server is re-dialed */
  mcpAuthStart(input: {
    name: string;
  }, opts: CallOptions = {}): Promise<unknown> {
    return this.call("POST", "/mcp/{name}/auth", { path: { "name": input["name"] } }, opts);
  }

  /** POST /mcp/{name}/connect — start (or re-dial) a ready server for this server process's sessions */
  mcpConnect(input: {
    name: string;
  }, opts: CallOptions = {}): Promise<McpConnectAnswer> {
    return this.call("POST", "/mcp/{name}/connect", { path: { "name": input["name"] } }, opts);
  }

  /** POST /mcp/{name}/disconnect — disconnect a server for the rest of this server process (its tools go at once) */
  mcpDisconnect(input: {
    name: string;
  }, opts: CallOptions = {}): Promise<McpConnectAnswer> {
    return this.call("POST", "/mcp/{name}/disconnect", { path: { "name": input["name"] } }, opts);
  }

  /** POST /mcp/{name}/enable — switch a server on or off for this project (as `oceancode mcp enable|disable`), applied at once */
  mcpEnable(input: {
    name: string;
    body: {
      on: boolean;
    };
  }, opts: CallOptions = {}): Promise<McpConnectAnswer> {
    return this.call("POST", "/mcp/{name}/enable", { path: { "name": input["name"] }, body: input.body }, opts);
  }

  /** GET /mcp — every MCP server copy that applies here: live status, kind, provenance, trust and enable */
  mcpList(opts: CallOptions = {}): Promise<{
    servers: Array<McpConnectAnswer>;
  }> {
    return this.call("GET", "/mcp", {}, opts);
  }

  /** GET /mcp/{name}/prompts — a connected server's prompts (typed as /mcp__<server>__<prompt> args) */
  mcpPrompts(input: {
    name: string;
  }, opts: CallOptions = {}): Promise<unknown> {
    return this.call("GET", "/mcp/{name}/prompts", { path: { "name": input["name"] } }, opts);
  }

  /** GET /mcp/{name}/resources — a connected server's resources (the first page) */
  mcpResources(input: {
    name: string;
  }, opts: CallOptions = {}): Promise<unknown> {
    return this.call("GET", "/mcp/{name}/resources", { path: { "name": input["name"] } }, opts);
  }

  /** GET /mcp/{name}/tools — a connected server's tools, with the names the model sees (mcp__<server>__<tool>) */
  mcpTools(input: {
    name: string;
  }, opts: CallOptions = {}): Promise<unknown> {
    return this.call("GET", "/mcp/{name}/tools", { path: { "name": input["name"] } }, opts);
  }

  /** POST /mcp/{name}/trust — trust a server or hold it (trust.json, as `oceancode trust mcp <name> on|off`), applied at once */
  mcpTrust(input: {
    name: string;
    body: {
      on: boolean;
    };
  }, opts: CallOptions = {}): Promise<McpConnectAnswer> {
    return this.call("POST", "/mcp/{name}/trust", { path: { "name": input["name"] }, body: input.body }, opts);
  }

  /** GET /metrics — the process's metrics in the Prometheus text format (version 0.0.4): steps, turns, tool and model calls, tokens, cost, permissions, errors, sessions, SSE clients, the storage writer (docs/operations-metrics.md) */
  metrics(opts: CallOptions = {}): Promise<string> {
    return this.call("GET", "/metrics", {}, opts);
  }

  /** GET /model — the model catalogue: every listed model with its aliases, and limits and prices for those a loaded provider catalogues; `default` is the configured model */
  modelList(opts: CallOptions = {}): Promise<{
    default: string;
    models: Array<{
      /** provider/model */
      id: string;
      provider: string;
      /** short names a person may type (sonnet, opus, ...) */
      aliases: Array<string>;
      /** the catalogue has it (a manifest's contributes.models entry or a loaded provider's own): the limits and prices below are set */
      catalogued: boolean;
      contextWindow?: number;
      maxOutputTokens?: number;
      /** USD per million tokens */
      price?: {
        input: number;
        output: number;
        cacheRead: number;
        cacheWrite: number;
      };
      /** takes tool definitions */
      tools?: boolean;
      /** reads image input */
      images?: boolean;
    }>;
  }> {
    return this.call("GET", "/model", {}, opts);
  }

  /** GET /doc — this OpenAPI 3.1 document */
  openapi(opts: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.call("GET", "/doc", {}, opts);
  }

  /** POST /permission/check — Would this call be allowed, asked or denied, and by which rule? (oceancode permissions check; runs nothing) */
  permissionCheck(input: {
    body: {
      tool: string;
      /** the command for bash, the path for file tools */
      subject: string;
      mode?: "default" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan";
      cwd?: string;
    };
  }, opts: CallOptions = {}): Promise<{
    action: "allow" | "ask" | "deny";
    reason: string;
    rule: string;
    layer: string;
    file?: string;
    always?: string;
  }> {
    return this.call("POST", "/permission/check", { body: input.body }, opts);
  }

  /** GET /session/{id}/permission-mode — The session's permission mode in force */
  permissionModeGet(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    mode: "default" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan";
    /** why the mode in force is not the one asked for (e.g. requirements disable bypassPermissions) */
    note?: string;
  }> {
    return this.call("GET", "/session/{id}/permission-mode", { path: { "id": input["id"] } }, opts);
  }

  /** GET /api/session/{id}/permission/mode — The session's permission mode in force */
  permissionModeGetApi(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    mode: "default" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan";
    /** why the mode in force is not the one asked for (e.g. requirements disable bypassPermissions) */
    note?: string;
  }> {
    return this.call("GET", "/api/session/{id}/permission/mode", { path: { "id": input["id"] } }, opts);
  }

  /** POST /session/{id}/permission-mode — Switch the session's permission mode live (bypassPermissions downgrades to default when managed requirements disable it; the note says so) */
  permissionModeSet(input: {
    id: string;
    body: {
      mode: "default" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan";
    };
  }, opts: CallOptions = {}): Promise<{
    mode: "default" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan";
    /** why the mode in force is not the one asked for (e.g. requirements disable bypassPermissions) */
    note?: string;
  }> {
    return this.call("POST", "/session/{id}/permission-mode", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** POST /api/session/{id}/permission/mode — Switch the session's permission mode live (bypassPermissions downgrades to default when managed requirements disable it; the note says so) */
  permissionModeSetApi(input: {
    id: string;
    body: {
      mode: "default" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan";
    };
  }, opts: CallOptions = {}): Promise<{
    mode: "default" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan";
    /** why the mode in force is not the one asked for (e.g. requirements disable bypassPermissions) */
    note?: string;
  }> {
    return this.call("POST", "/api/session/{id}/permission/mode", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** POST /permission/rules — Add a rule to the project's local config (.oceancode/oceancode.json, where an "always" answer saves); it applies from the next tool call */
  permissionRuleAdd(input: {
    body: {
      /** <tool> <pattern> <action>, e.g. bash git push * deny */
      rule: string;
    };
  }, opts: CallOptions = {}): Promise<PermissionRuleAddAnswer> {
    return this.call("POST", "/permission/rules", { body: input.body }, opts);
  }

  /** POST /permission/rules/remove — Remove a rule from the project's local config; a rule of another file (the checkout's .claude settings, global, managed, requirements) is refused, naming its file */
  permissionRuleRemove(input: {
    body: {
      /** <tool> <pattern> <action>, e.g. bash git push * deny */
      rule: string;
    };
  }, opts: CallOptions = {}): Promise<PermissionRuleAddAnswer> {
    return this.call("POST", "/permission/rules/remove", { body: input.body }, opts);
  }

  /** GET /permission/rules — Every permission rule in force, lowest precedence first, with its layer and file */
  permissionRules(opts: CallOptions = {}): Promise<PermissionRuleAddAnswer> {
    return this.call("GET", "/permission/rules", {}, opts);
  }

  /** POST /plugin/{name}/enable — enable or disable a plugin by name (as `oceancode plugin enable|disable`); sessions started from now on see it */
  pluginEnable(input: {
    name: string;
    body: {
      on: boolean;
    };
  }, opts: CallOptions = {}): Promise<PluginEnableAnswer> {
    return this.call("POST", "/plugin/{name}/enable", { path: { "name": input["name"] }, body: input.body }, opts);
  }

  /** GET /plugin — every plugin that applies to this project (oceancode's store and Claude Code's), with enabled and trusted */
  pluginList(opts: CallOptions = {}): Promise<{
    plugins: Array<PluginEnableAnswer>;
  }> {
    return this.call("GET", "/plugin", {}, opts);
  }

  /** GET /provider — the model providers: each id, the extension that serves it, whether it is loaded in this server, and how many models it lists */
  providerList(opts: CallOptions = {}): Promise<{
    providers: Array<{
      id: string;
      extension?: string;
      loaded: boolean;
      models: number;
    }>;
  }> {
    return this.call("GET", "/provider", {}, opts);
  }

  /** POST /session/{id}/question/{questionId} — answer a waiting question: once, always (saves its rule), or reject (with a reason the model is told) */
  questionAnswer(input: {
    id: string;
    questionId: string;
    body: {
      answer: "once" | "always" | "reject";
      reason?: string;
      /** a form question's values by field name (an MCP elicitation), with answer once */
      values?: Record<string, string>;
    };
  }, opts: CallOptions = {}): Promise<{
    ok: boolean;
  }> {
    return this.call("POST", "/session/{id}/question/{questionId}", { path: { "id": input["id"], "questionId": input["questionId"] }, body: input.body }, opts);
  }

  /** GET /session/{id}/question — the session's permission questions waiting for an answer */
  questionList(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<Array<{
    id: string;
    sessionId: string;
    askedAt: number;
    question: {
      sessionId?: string;
      tool: string;
      subject: string;
      reason: string;
      rule?: string;
      always?: string;
      autoApprove?: boolean;
      /** a form question (an MCP elicitation): answer with `values` by field name */
      fields?: Array<{
        name: string;
        type: "string" | "number" | "integer" | "boolean";
        title?: string;
        description?: string;
        required: boolean;
        default?: string | number | boolean;
        options?: Array<string>;
      }>;
    };
  }>> {
    return this.call("GET", "/session/{id}/question", { path: { "id": input["id"] } }, opts);
  }

  /** POST /session/{id}/abort — abort the running turn at its next step boundary (its pending questions are rejected) */
  sessionAbort(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    aborted: boolean;
    turnId?: string;
  }> {
    return this.call("POST", "/session/{id}/abort", { path: { "id": input["id"] } }, opts);
  }

  /** GET /session/{id}/changes — the files the session changed (its active path's turns): status and line counts against the checkpoint */
  sessionChanges(input: {
    /** only this user turn of the active path (its before against its after); default: the session's checkpoint against the disk now */
    turn?: number;
    id: string;
  }, opts: CallOptions = {}): Promise<{
    sessionId: string;
    files: Array<SessionChangesAnswerFile>;
  }> {
    return this.call("GET", "/session/{id}/changes", { path: { "id": input["id"] }, query: { "turn": input["turn"] } }, opts);
  }

  /** GET /session/{id}/checkpoints — the session's user turns (every branch), the one it stands on, and the engine turns off the active path (a client hides those rows after an undo) */
  sessionCheckpoints(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    /** the user turn the session stands on (0: before the first) */
    active: number;
    turns: Array<{
      id: number;
      parent: number;
      turns: Array<number>;
      title: string;
      at: number;
    }>;
    /** engine turn numbers whose rows are off the active path (undone) */
    hidden: Array<number>;
  }> {
    return this.call("GET", "/session/{id}/checkpoints", { path: { "id": input["id"] } }, opts);
  }

  /** POST /session/{id}/command — Run a slash command against the session (/undo, /limits usd 5, ...), as `run "/cmd"` does; its replies are the answer */
  sessionCommand(input: {
    id: string;
    body: {
      /** the command line, with or without its leading / */
      command: string;
    };
  }, opts: CallOptions = {}): Promise<{
    name: string;
    /** false: the command refused or failed (error says why) */
    ok: boolean;
    replies: Array<string>;
    error?: string;
  }> {
    return this.call("POST", "/session/{id}/command", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** POST /session — start a session (stored from its first prompt) */
  sessionCreate(input: {
    body: {
      /** the project directory (default: the server's --directory) */
      cwd?: string;
      /** provider/model (default: the configured model) */
      model?: string;
      /** recorded as overrides.agent (no primary-agent switch reads it yet) */
      agent?: string;
    };
  }, opts: CallOptions = {}): Promise<SessionCreateAnswer> {
    return this.call("POST", "/session", { body: input.body }, opts);
  }

  /** DELETE /session/{id} — abort its turn, close it and delete it from storage */
  sessionDelete(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    id: string;
    deleted: boolean;
  }> {
    return this.call("DELETE", "/session/{id}", { path: { "id": input["id"] } }, opts);
  }

  /** GET /session/{id}/diff — the unified diff of the session's changed files against the checkpoint (files outside the project and .env files are named, never shown) */
  sessionDiff(input: {
    /** only this user turn of the active path (its before against its after); default: the session's checkpoint against the disk now */
    turn?: number;
    /** only this file (as the changes list names it) */
    path?: string;
    id: string;
  }, opts: CallOptions = {}): Promise<{
    sessionId: string;
    files: Array<SessionChangesAnswerFile>;
  }> {
    return this.call("GET", "/session/{id}/diff", { path: { "id": input["id"] }, query: { "turn": input["turn"], "path": input["path"] } }, opts);
  }

  /** GET /session/{id}/event — one session's events (SSE), with ?subagents=true its sub-agents' too; Last-Event-ID replays what was missed */
  sessionEventStream(input: {
    /** like the Last-Event-ID header */
    lastEventId?: number;
    /** also the events of the session's sub-agents (each carries its own sessionId); default false */
    subagents?: boolean;
    id: string;
  }, opts: CallOptions & { lastEventId?: string; reconnect?: boolean } = {}): AsyncGenerator<ServerSentEvent<unknown>> {
    return this.stream("/session/{id}/event", { "id": input["id"] }, opts);
  }

  /** GET /session/{id}/export — The whole stored session as Markdown (format=md, text/markdown) or an ATIF-v1.8 trajectory (format=atif, JSON), as `oceancode export` writes it */
  sessionExport(input: {
    format?: "md" | "atif";
    id: string;
  }, opts: CallOptions = {}): Promise<{
    schema_version: string;
    session_id: string;
    agent: {
      name: string;
      version: string;
      model_name?: string;
    };
    steps: Array<{
      step_id: number;
      source: "system" | "user" | "agent";
      message: string;
      timestamp?: string;
      model_name?: string;
      tool_calls?: Array<{
        tool_call_id: string;
        function_name: string;
        arguments: Record<string, unknown>;
      }>;
      observation?: {
        results: Array<{
          source_call_id: string;
          content: string;
        }>;
      };
      metrics?: {
        prompt_tokens: number;
        completion_tokens: number;
        cached_tokens: number;
        cost_usd?: number;
      };
    }>;
    final_metrics: {
      total_prompt_tokens: number;
      total_completion_tokens: number;
      total_cached_tokens: number;
      total_cost_usd?: number;
      total_steps: number;
    };
    notes?: string;
    extra?: Record<string, unknown>;
  }> {
    return this.call("GET", "/session/{id}/export", { path: { "id": input["id"] }, query: { "format": input["format"] } }, opts);
  }

  /** POST /session/{id}/fork — a new session from this one's history up to a journal entry (r<seq>, <seq> or turn:<n>; default: all of it, along the active path); the source is not changed */
  sessionFork(input: {
    id: string;
    body: {
      at?: string;
    };
  }, opts: CallOptions = {}): Promise<{
    id: string;
    from: string;
    entry: string;
    rows: number;
    turns: number;
  }> {
    return this.call("POST", "/session/{id}/fork", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** GET /session/{id} — one session (opened by this server on first use) */
  sessionGet(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<SessionCreateAnswer> {
    return this.call("GET", "/session/{id}", { path: { "id": input["id"] } }, opts);
  }

  /** GET /session — Stored sessions (newest first) and the ones this server holds open; search by title, id, project or model, a page at a time (offset + limit) */
  sessionList(input: {
    /** only this project's sessions (relative to the server's --directory) */
    cwd?: string;
    /** words that must all appear (case-insensitive) in the title, id, project path or model */
    search?: string;
    /** only pinned (true) or only unpinned (false) sessions */
    pinned?: boolean;
    /** skip this many matches (the next page: offset + limit) */
    offset?: number;
    limit?: number;
  } = {}, opts: CallOptions = {}): Promise<Array<{
    id: string;
    parentId?: string;
    cwd: string;
    model: string;
    title?: string;
    createdAt: number;
    updatedAt?: number;
    turns?: number;
    steps?: number;
    /** kept by the retention sweep (POST /session/{id}/pin) */
    pinned?: boolean;
    open?: boolean;
  }>> {
    return this.call("GET", "/session", { query: { "cwd": input["cwd"], "search": input["search"], "pinned": input["pinned"], "offset": input["offset"], "limit": input["limit"] } }, opts);
  }

  /** GET /session/{id}/message — the session's rows (messages) in seq order, a page at a time: pass nextCursor back as cursor */
  sessionMessages(input: {
    cursor?: number;
    limit?: number;
    id: string;
  }, opts: CallOptions = {}): Promise<{
    messages: Array<{
      seq: number;
      role: "user" | "assistant" | "tool" | "note";
      turn?: number;
      step?: number;
      at?: number;
    }>;
    nextCursor?: number;
  }> {
    return this.call("GET", "/session/{id}/message", { path: { "id": input["id"] }, query: { "cursor": input["cursor"], "limit": input["limit"] } }, opts);
  }

  /** GET /session/{id}/meter — The session meter: context used, tideline status, tokens, spend, turns and steps (what the pager's status bar shows) */
  sessionMeter(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    sessionId: string;
    model: string;
    /** the model's context window */
    contextWindow: number;
    /** the window's size after the last step's cuts, in tokens */
    used: number;
    /** "tideline @40% (80k): 38k to go" | "tideline off" */
    status: string;
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    costUsd: number;
    turns: number;
    steps: number;
  }> {
    return this.call("GET", "/session/{id}/meter", { path: { "id": input["id"] } }, opts);
  }

  /** POST /session/{id}/pin — Pin a session: the retention sweep keeps it, whatever its age (oceancode session pin) */
  sessionPin(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<SessionPinAnswer> {
    return this.call("POST", "/session/{id}/pin", { path: { "id": input["id"] } }, opts);
  }

  /** POST /session/{id}/prompt — queue a prompt, with files and images attached; answers 202 at once, the turn runs after the session's earlier turns (follow it on the event stream) */
  sessionPrompt(input: {
    id: string;
    body: {
      text: string;
      attachments?: Array<{
        type: "image";
        mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
        /** base64, at most 5242880 bytes decoded */
        data: string;
        name?: string;
      } | {
        type: "file";
        /** with content: the file's name as shown to the model; without: a file or folder of the project, read by the server */
        path: string;
        /** the file's text (an upload); cut at 262144 characters */
        content?: string;
      }>;
    };
  }, opts: CallOptions = {}): Promise<{
    turnId: string;
  }> {
    return this.call("POST", "/session/{id}/prompt", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** POST /session/{id}/redo — re-apply the user turn the last undo took back */
  sessionRedo(input: {
    id: string;
    body: {
      /** overwrite files changed outside the agent (after a person confirmed) */
      force?: boolean;
    };
  }, opts: CallOptions = {}): Promise<SessionRedoAnswer> {
    return this.call("POST", "/session/{id}/redo", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** PATCH /session/{id} — Rename a session (its title in the session list) */
  sessionRename(input: {
    id: string;
    body: {
      title: string;
    };
  }, opts: CallOptions = {}): Promise<SessionCreateAnswer> {
    return this.call("PATCH", "/session/{id}", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** POST /session/{id}/rewind — go back to before user turn `turn` of the active path (1 = the first), undoing it and the turns after it */
  sessionRewind(input: {
    id: string;
    body: {
      turn: number;
      force?: boolean;
    };
  }, opts: CallOptions = {}): Promise<SessionRedoAnswer> {
    return this.call("POST", "/session/{id}/rewind", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** POST /session/{id}/shell — Run a shell command of the user's (the pager's !cmd) through the bash tool's permission and sandbox path; its output goes with the next prompt */
  sessionShell(input: {
    id: string;
    body: {
      command: string;
      /** attach the output to the session's next prompt as context (default true) */
      attach?: boolean;
    };
  }, opts: CallOptions = {}): Promise<{
    command: string;
    /** the output as the model would see it (or why it was refused) */
    content: string;
    /** it failed, or was refused (a rule, the shell guard, a rejected question) */
    isError: boolean;
    /** it goes with the next prompt */
    attached: boolean;
  }> {
    return this.call("POST", "/session/{id}/shell", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** GET /session/{id}/subagent — The session's effective sub-agent model: its override, else subagent.model config, else the session's own model */
  sessionSubagentModel(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    model: {
      provider: string;
      model: string;
      /** provider/model */
      id: string;
    } | null;
  }> {
    return this.call("GET", "/session/{id}/subagent", { path: { "id": input["id"] } }, opts);
  }

  /** GET /session/{id}/tideline — The session's tideline: the line, the window gauge and the cuts so far */
  sessionTideline(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    sessionId: string;
    model: string;
    /** the model's context window */
    contextWindow: number;
    /** the window's size after the last step's cuts, in tokens */
    used: number;
    /** "tideline @40% (80k): 38k to go" | "tideline off" */
    status: string;
    enabled: boolean;
    line: {
      /** the line in tokens */
      line: number;
      /** a block closes when the gauge grew this much since it opened */
      block: number;
      mode: "percent" | "tokens";
      /** the share of the model's context (mode percent) */
      percent?: number;
      /** the configured line was above what the model can hold */
      clamped: boolean;
    } | null;
    /** tokens until the line (null: tideline off) */
    toGo: number | null;
    cuts: number;
    /** every row up to this seq left the window (0 before the first cut) */
    cutSeq: number;
  }> {
    return this.call("GET", "/session/{id}/tideline", { path: { "id": input["id"] } }, opts);
  }

  /** GET /session/{id}/todos — The session's todo list (the model's plan, the rows a person added, or the always-plan floor) with its open and completed counts */
  sessionTodos(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    sessionId: string;
    items: Array<{
      content: string;
      status: "pending" | "in_progress" | "completed" | "cancelled";
      activeForm?: string;
      by: "model" | "user" | "floor";
    }>;
    /** the list is the always-plan floor (the prompt): the model has not planned yet */
    floor: boolean;
    /** the model wrote a list in this session */
    planned: boolean;
    version: number;
    /** rows pending or in progress */
    open: number;
    completed: number;
  }> {
    return this.call("GET", "/session/{id}/todos", { path: { "id": input["id"] } }, opts);
  }

  /** POST /session/{id}/undo — take back the last user turn: its conversation (the journal's leaf moves back) and the files it changed */
  sessionUndo(input: {
    id: string;
    body: {
      /** overwrite files changed outside the agent (after a person confirmed) */
      force?: boolean;
    };
  }, opts: CallOptions = {}): Promise<SessionRedoAnswer> {
    return this.call("POST", "/session/{id}/undo", { path: { "id": input["id"] }, body: input.body }, opts);
  }

  /** DELETE /session/{id}/pin — Unpin a session: retention applies to it again (oceancode session unpin) */
  sessionUnpin(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<SessionPinAnswer> {
    return this.call("DELETE", "/session/{id}/pin", { path: { "id": input["id"] } }, opts);
  }

  /** POST /skill/{name}/enable — turn a skill or command on or off by stable id, qualified or bare name (as `oceancode skill enable|disable`) */
  skillEnable(input: {
    name: string;
    body: {
      on: boolean;
    };
  }, opts: CallOptions = {}): Promise<{
    /** stable ids */
    changed: Array<string>;
  }> {
    return this.call("POST", "/skill/{name}/enable", { path: { "name": input["name"] }, body: input.body }, opts);
  }

  /** GET /skill — every skill and command found (every tier and ecosystem), with its state and why it is off */
  skillList(opts: CallOptions = {}): Promise<{
    skills: Array<{
      /** <tier>.<eco>:<name> */
      id: string;
      name: string;
      /** what is typed: bare when unique, else <tier>:<name> */
      qualifiedName: string;
      kind: "skill" | "command";
      tier: string;
      ecosystem: string;
      plugin?: string;
      file: string;
      description: string;
      argumentHint?: string;
      enabled: boolean;
      /** why it is off */
      reason?: string;
      /** its root is trusted (an untrusted item's allowed-tools grant nothing) */
      trusted: boolean;
      shadowed: boolean;
      modelInvocable: boolean;
      userInvocable: boolean;
      warning?: string;
    }>;
  }> {
    return this.call("GET", "/skill", {}, opts);
  }

  /** POST /trust/repo — Trust or distrust this project's repo tier (its hooks and .mcp.json servers), as `oceancode trust repo on|off` does; answers the hooks document after the reload */
  trustRepo(input: {
    body: {
      on: boolean;
    };
  }, opts: CallOptions = {}): Promise<{
    /** the project's repo tier is trusted (its hooks run) */
    repo_trusted: boolean;
    sources: Array<HooksAddAnswerSource>;
  }> {
    return this.call("POST", "/trust/repo", { body: input.body }, opts);
  }

  /** POST /workflow/run — Launch a workflow (a built-in or a discovered script, by name) in the server's process; its bodies at /workflow/runs/:id/event */
  workflowRun(input: {
    body: {
      workflow: string;
      args?: unknown;
      /** model calls the run may make (each model request of its sessions counts 1) */
      budget?: number;
      /** provider/model of the run's sessions */
      model?: string;
    };
  }, opts: CallOptions = {}): Promise<{
    run_id: string;
  }> {
    return this.call("POST", "/workflow/run", { body: input.body }, opts);
  }

  /** GET /workflow/runs/{id}/event — One run's bodies as SSE (event workflow_updated or goal_updated, id = seq): the stored ones, then live; the stream ends after the terminal body */
  workflowRunEvents(input: {
    id: string;
  }, opts: CallOptions & { lastEventId?: string; reconnect?: boolean } = {}): AsyncGenerator<ServerSentEvent<unknown>> {
    return this.stream("/workflow/runs/{id}/event", { "id": input["id"] }, opts);
  }

  /** GET /workflow/runs/{id} — One run: its run.json and every body so far */
  workflowRunGet(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    meta: {
      run_id: string;
      workflow: string;
      kind: "workflow" | "goal";
      project: string;
      started_at: string;
      pid: number;
    };
    bodies: Array<WorkflowRunGetAnswerBody>;
    live: boolean;
  }> {
    return this.call("GET", "/workflow/runs/{id}", { path: { "id": input["id"] } }, opts);
  }

  /** POST /workflow/runs/{id}/pause — Pause a run live in this server: its next host call or model request waits (a user_paused body) */
  workflowRunPause(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    run_id: string;
    action: string;
  }> {
    return this.call("POST", "/workflow/runs/{id}/pause", { path: { "id": input["id"] } }, opts);
  }

  /** POST /workflow/runs/{id}/resume — Resume a paused run live in this server; budget lifts its limit of model calls */
  workflowRunResume(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    run_id: string;
    action: string;
  }> {
    return this.call("POST", "/workflow/runs/{id}/resume", { path: { "id": input["id"] } }, opts);
  }

  /** GET /workflow/runs — The runs of this server's project (every project's with all=true), oldest first, each with its latest body */
  workflowRuns(input: {
    all?: boolean;
  } = {}, opts: CallOptions = {}): Promise<Array<{
    run_id: string;
    workflow: string;
    kind: "workflow" | "goal";
    project: string;
    started_at: string;
    pid: number;
    status: string;
    terminal: boolean;
    live: boolean;
    latest?: WorkflowRunGetAnswerBody;
  }>> {
    return this.call("GET", "/workflow/runs", { query: { "all": input["all"] } }, opts);
  }

  /** POST /workflow/runs/{id}/stop — Stop a run live in this server: it ends cancelled */
  workflowRunStop(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    run_id: string;
    action: string;
  }> {
    return this.call("POST", "/workflow/runs/{id}/stop", { path: { "id": input["id"] } }, opts);
  }
}
