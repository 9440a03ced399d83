#!/usr/bin/env node
// Attachments, `!` shell and slash commands over HTTP: plain node (>= 20), fetch only.
//
//   oceancode serve --port 4096 &
//   OC_MODEL=scripted/echo node examples/serve/attach.mjs screenshot.png src/app.ts
//
// Each argument is attached to one prompt: an image (png, jpeg, gif, webp) is sent as base64, any other
// path is a file of the server's project, read there through the read tool's guards. Before the prompt it
// runs `git status --short` as the pager's `!git status --short` would (its output goes with the prompt),
// and after it `/plan list`. OC_URL, OC_SERVER_PASSWORD / OC_SERVER_USERNAME as in client.mjs.
import fs from "node:fs";
import path from "node:path";

const base = process.env.OC_URL ?? "http://127.0.0.1:4096";
const headers = { "content-type": "application/json" };
if (process.env.OC_SERVER_PASSWORD) {
  const user = process.env.OC_SERVER_USERNAME || "oceancode";
  headers.authorization = `Basic ${Buffer.from(`${user}:${process.env.OC_SERVER_PASSWORD}`).toString("base64")}`;
}
async function api(method, p, body) {
  const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${data.error?.code}: ${data.error?.message}`);
  return data;
}

const IMAGES = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };
const attachments = process.argv.slice(2).map((p) => {
  const mediaType = IMAGES[path.extname(p).toLowerCase()];
  return mediaType ? { type: "image", mediaType, data: fs.readFileSync(p).toString("base64") } : { type: "file", path: p };
});

const s = await api("POST", "/session", process.env.OC_MODEL ? { model: process.env.OC_MODEL } : {});
const sh = await api("POST", `/session/${s.id}/shell`, { command: "git status --short" });
console.log(`! git status --short -> ${sh.isError ? "failed or refused" : "ok"} (goes with the prompt)`);
const { turnId } = await api("POST", `/session/${s.id}/prompt`, { text: "What do you see in what I attached?", attachments });
// wait for the turn (the event stream would stream it: see client.mjs)
for (let i = 0; i < 600; i++) {
  const info = await api("GET", `/session/${s.id}`);
  if (info.running !== turnId && !info.queued) break;
  await new Promise((r) => setTimeout(r, 500));
}
const { messages } = await api("GET", `/session/${s.id}/message?limit=1000`);
console.log(messages.filter((m) => m.role === "assistant").at(-1)?.text ?? "(no answer)");
const plan = await api("POST", `/session/${s.id}/command`, { command: "/plan list" });
console.log(plan.replies.join("\n"));
