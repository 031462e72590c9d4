#!/usr/bin/env bash
EVENT_DATA=$(cat)
FILE_PATH=$(echo "$EVENT_DATA" | jq -r '.tool_input.path // ""')

if echo "$FILE_PATH" | grep -qE "\.env|secrets"; then
  echo "Warning: Accessing sensitive file: $FILE_PATH" >&2
fi

exit 0  # Allow tool but show warning
