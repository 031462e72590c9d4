#!/usr/bin/env bash
EVENT_DATA=$(cat)

# Explicitly allow
echo "Allowing tool execution" >&2  # Debug message
exit 0  # Success - don't block
