#!/usr/bin/env bash
EVENT_DATA=$(cat)

TOOL_NAME=$(echo "$EVENT_DATA" | jq -r '.tool_name')

if [[ "$TOOL_NAME" == "launch-process" ]]; then
  # Extract the command being executed
  COMMAND=$(echo "$EVENT_DATA" | jq -r '.tool_input.command')
  echo "Command: $COMMAND" >&2

  # Check for dangerous patterns
  if echo "$COMMAND" | grep -qE "rm -rf|sudo|curl.*sh"; then
    echo "Blocked dangerous command" >&2
    exit 2
  fi
fi

exit 0
