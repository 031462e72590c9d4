# Test JSON output
cat << 'EOF' | jq .
{
  "hookSpecificOutput": {
    "hookEventName": "PreToolUse",
    "permissionDecision": "deny"
  }
}
EOF
