#!/usr/bin/env bash

# Load current issues from issue tracker
ISSUES=$(curl -s https://api.example.com/issues)

# Output to stdout - this will be injected as context for the agent
echo "Current open issues:"
echo "$ISSUES"

exit 0
