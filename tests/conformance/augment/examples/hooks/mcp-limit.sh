#!/usr/bin/env bash
EVENT_DATA=$(cat)

MCP_DECISION=$(echo "$EVENT_DATA" | jq -r '.mcp_metadata.mcpDecision // "no"')
MCP_TOTAL=$(echo "$EVENT_DATA" | jq -r '.mcp_metadata.mcpTotalToolsCount // 0')

# Block if too many MCP tools are enabled (security concern)
if [[ "$MCP_DECISION" == "yes" ]] && [[ "$MCP_TOTAL" -gt 100 ]]; then
  echo "Too many MCP tools enabled ($MCP_TOTAL). Contact admin." >&2
  exit 2
fi

exit 0
