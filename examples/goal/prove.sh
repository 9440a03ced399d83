#!/usr/bin/env bash
# Run goal mode on an objective and follow it: one line per change, then the outcome.
# usage: prove.sh "<objective>" [budget]
set -u
objective=${1:?usage: prove.sh "<objective>" [budget]}
budget=${2:-64}
out=$(mktemp)
oceancode goal --budget "$budget" "$objective" | tee "$out" \
  | jq -r '"\(.seq) \(.status) \(.phase) round \(.round) spent \(.budget.spent)/\(.budget.limit // "-")" + (if (.gaps | length) > 0 then "\n  gaps: " + (.gaps | join("; ")) else "" end)'
code=${PIPESTATUS[0]}  # oceancode's exit, not jq's
# the last line is always the terminal body
tail -n 1 "$out" | jq -r '"outcome: \(.status)" + (if .error then " (\(.error))" else "" end)'
rm -f "$out"
exit "$code"
