#!/bin/sh
# PostToolUse: append the edited file's path to ~/.hello-plugin-edits.log (stdin is the hook's JSON).
path=$(sed -n 's/.*"file_path" *: *"\([^"]*\)".*/\1/p')
[ -n "$path" ] && printf '%s\n' "$path" >> "$HOME/.hello-plugin-edits.log"
exit 0
