#!/usr/bin/env bash
# A CI step that asks oceancode to review the branch's diff the way a `claude -p` step would, reads the
# stream-json lines with jq, and fails the step when the run failed. Needs oceancode and jq on PATH.
#
#   OC_MODEL=scripted/echo examples/print/ci-review.sh      # offline: the scripted echo model
#   examples/print/ci-review.sh main                         # your configured model, diff against main
set -euo pipefail

base="${1:-HEAD~1}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT

# the prompt is a word; the diff comes on stdin (appended to it). --verbose is accepted as claude needs it.
git diff "$base" -- . | oceancode -p "Review this diff: list bugs, one per line, or say LGTM." \
  --output-format stream-json --verbose >"$out" || status=$?
status="${status:-0}"

# each line is one JSON object: follow the tool calls, then read the result line
jq -r 'select(.type == "assistant") | .message.content[] | select(.type == "tool_use") | "tool: \(.name) \(.input | tostring | .[0:80])"' "$out"
jq -r 'select(.type == "result") | "session \(.session_id): \(.num_turns) model requests, $\(.total_cost_usd), \(.usage.input_tokens) in / \(.usage.output_tokens) out"' "$out"
jq -r 'select(.type == "result") | .permission_denials[] | "denied: \(.tool_name) \(.tool_input | tostring)"' "$out"
echo "---"
jq -r 'select(.type == "result") | .result' "$out"

# is_error mirrors the exit code: 1 a failed turn, 2 a usage error, 130 interrupted
if [ "$(jq -r 'select(.type == "result") | .is_error' "$out" | tail -1)" = "true" ] || [ "$status" -ne 0 ]; then
  echo "review failed (exit $status)" >&2
  exit "${status/#0/1}"
fi
