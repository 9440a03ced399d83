#!/bin/sh
# A PreToolUse guard for Bash, written for Claude Code and run unchanged by oceancode.
# Reads the event payload on stdin; exit 2 blocks the call (stderr is the reason the model sees).
payload=$(cat)
command=$(printf '%s' "$payload" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(JSON.parse(s).tool_input.command||"")}catch{}})')
case "$command" in
  *"git push"*"--force"*|*"git push"*" -f"*)
    echo "force-push is not allowed from the agent; push without --force or ask a human" >&2
    exit 2 ;;
  *"npm publish"*)
    # ask the user instead of deciding here
    printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"publishing needs a human"}}\n'
    exit 0 ;;
esac
exit 0
