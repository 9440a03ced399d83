/** What the ACP host keeps per connection and per session (one connection per process: stdio). */
import type { McpService } from "../mcp/api.js";
import type { ClientCapabilities, SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { EngineService, Session, ToolCall } from "../engine/api.js";
import type { PermissionsService } from "../permissions/api.js";
import type { PlanModeService } from "../todos/api.js";
import type { StorageService } from "../storage/api.js";
import type { TodosService } from "../todos/api.js";
import type { Logger } from "../../kernel/api.js";

export interface AcpSession {
  session: Session;
  /** the running prompt's controller (session/cancel aborts it); one prompt at a time per session */
  turn?: AbortController;
  /** settles when the running prompt has ended (closing waits for it) */
  turnEnded?: Promise<void>;
  /** tool calls announced and not yet finished, by call id (asks are matched to them) */
  open: Map<string, ToolCall>;
  /** what a call shows besides its result (a write's or edit's diff, the editor's terminal), kept at its end */
  shown: Map<string, ToolCallContent[]>;
  /** calls a permission request was already sent for */
  asked: Set<string>;
  /** "reject always" answers: tool + subject */
  rejected: Set<string>;
}

export interface AcpHost {
  engine: EngineService;
  permissions?: PermissionsService;
  /** the plan agent (mode "plan") when the plan-mode extension is enabled */
  planMode?: PlanModeService;
  storage?: StorageService;
  /** the MCP extension: the editor's mcpServers are handed to it */
  mcp?: McpService;
  /** the todos extension: the list goes to the editor as `plan` updates */
  todos?: TodosService;
  log: Logger;
  /** the configured model for new sessions */
  model(): string;
  /** set at initialize */
  clientCaps?: ClientCapabilities;
  sessions: Map<string, AcpSession>;
  /** send a session/update, in order with every earlier one; settles once it is written (never rejects: a closed connection drops it) */
  update(sessionId: string, update: SessionUpdate): Promise<void>;
}

export function trackSession(host: AcpHost, session: Session): AcpSession {
  const s: AcpSession = { session, open: new Map(), shown: new Map(), asked: new Set(), rejected: new Set() };
  host.sessions.set(session.info.id, s);
  return s;
}
