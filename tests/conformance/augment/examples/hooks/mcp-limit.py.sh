#!/usr/bin/env python3
# /etc/augment/hooks/mcp-limit.sh (Python via shebang)
import sys
import json

event_data = json.load(sys.stdin)
mcp_metadata = event_data.get('mcp_metadata', {})

mcp_decision = mcp_metadata.get('mcpDecision', 'no')
mcp_total = mcp_metadata.get('mcpTotalToolsCount', 0)

# Block if too many MCP tools are enabled (security concern)
if mcp_decision == 'yes' and mcp_total > 100:
    print(f"Too many MCP tools enabled ({mcp_total}). Contact admin.", file=sys.stderr)
    sys.exit(2)

sys.exit(0)
