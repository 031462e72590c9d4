#!/usr/bin/env bash
EVENT_DATA=$(cat)

TOOL_ERROR=$(echo "$EVENT_DATA" | jq -r '.tool_error // ""')

if [[ -n "$TOOL_ERROR" ]] && echo "$TOOL_ERROR" | grep -q "permission denied"; then
  # Inject troubleshooting tip
  cat << EOF
{
  "hookSpecificOutput": {
    "hookEventName": "PostToolUse",
    "additionalContext": "Permission denied error detected. Try running with appropriate permissions or check file ownership."
  }
}
EOF
fi

exit 0
