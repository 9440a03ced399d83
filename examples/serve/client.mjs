#!/usr/bin/env node
// A tiny oceancode serve client: plain node (>= 20), fetch and a small SSE reader, no dependencies.
//
//   oceancode serve --port 4096 &
//   node examples/serve/client.mjs "what does this repo do?"            # OC_URL=http://127.0.0.1:4096
//   OC_MODEL=scripted/echo node examples/serve/client.mjs "hi"           # offline
//
// With OC_SERVER_PASSWORD set on the server, set it here too (user OC_SERVER_USERNAME, default oceancode).
// Permission questions are printed and answered "once" only with --yes; otherwise rejected with a reason.

const base = process.env.OC_URL ?? "http://127.0.0.1:4096";
const args = process.argv.slice(2);
const yes = args.includes("--yes");
const text = args.filter((a) => a !== "--yes").join(" ") || "hello";
const headers = { "content-type": "application/json" };
if (process.env.OC_SERVER_PASSWORD) {
  const user = process.env.OC_SERVER_USERNAME || "oceancode";
  headers.authorization = `Basic ${Buffer.from(`${user}:${process.env.OC_SERVER_PASSWORD}`).toString("base64")}`;
}

async function api(method, path, body) {
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error?.code}: ${data.error?.message}`);
  return data;
}

/** Yield {id, event, data} from an SSE response body. */
async function* events(res) {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of res.body) {
    buf += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buf.indexOf("\n\n")) >= 0) {
      const frame = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const ev = { id: undefined, event: "message", data: "" };
      for (const line of frame.split("\n")) {
        if (line.startsWith("id: ")) ev.id = Number(line.slice(4));
        else if (line.startsWith("event: ")) ev.event = line.slice(7);
        else if (line.startsWith("data: ")) ev.data += line.slice(6);
      }
      if (ev.data) yield { ...ev, data: JSON.parse(ev.data) };
    }
  }
}

const session = await api("POST", "/session", process.env.OC_MODEL ? { model: process.env.OC_MODEL } : {});
console.error(`session ${session.id} (${session.model}) in ${session.cwd}`);
// subscribe first, then prompt: nothing of the turn is missed
const stream = await fetch(`${base}/session/${session.id}/event`, { headers });
const { turnId } = await api("POST", `/session/${session.id}/prompt`, { text });

for await (const { event, data } of events(stream)) {
  if (event === "text_delta") process.stdout.write(data.text);
  else if (event === "tool_call_start") console.error(`\n▸ ${data.call.name} ${JSON.stringify(data.call.input).slice(0, 120)}`);
  else if (event === "question_asked") {
    console.error(`\n? ${data.question.tool} asks: ${data.question.reason} (${data.question.subject.slice(0, 120)})`);
    await api("POST", `/session/${session.id}/question/${data.questionId}`, yes ? { answer: "once" } : { answer: "reject", reason: "the example client approves only with --yes" });
  } else if (event === "turn_done" && data.turnId === turnId) {
    console.error(`\n[${data.reason}]`);
    break;
  }
}
const { messages } = await api("GET", `/session/${session.id}/message?limit=1000`);
console.error(`${messages.length} rows stored`);
