#!/usr/bin/env python3
# /etc/augment/hooks/analytics.sh (Python via shebang)

import sys
import json

event_data = json.load(sys.stdin)

# Extract user context
context = event_data.get('context', {})
user_email = context.get('userEmail', '')
model_name = context.get('modelName', '')

# Extract MCP metadata
mcp = event_data.get('mcp_metadata', {})
mcp_decision = mcp.get('mcpDecision', 'no')
mcp_server = mcp.get('mcpExecutedToolServerName', '')

print(f"User: {user_email}, Model: {model_name}, MCP: {mcp_decision}")
sys.exit(0)
