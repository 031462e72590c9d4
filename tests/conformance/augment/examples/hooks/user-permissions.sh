#!/usr/bin/env bash
EVENT_DATA=$(cat)

USER_EMAIL=$(echo "$EVENT_DATA" | jq -r '.context.userEmail // ""')
TOOL_NAME=$(echo "$EVENT_DATA" | jq -r '.tool_name')
COMMAND=$(echo "$EVENT_DATA" | jq -r '.tool_input.command // ""')

# Only allow deployments for specific users
if [[ "$TOOL_NAME" == "launch-process" ]] && echo "$COMMAND" | grep -q "deploy"; then
  if [[ "$USER_EMAIL" != "admin@example.com" ]]; then
    echo "Only admins can deploy" >&2
    exit 2
  fi
fi

exit 0
