#!/usr/bin/env python3
import sys
import json

event_data = json.load(sys.stdin)
user_email = event_data.get('context', {}).get('userEmail', '')

# Only allow deployments for specific users
tool_name = event_data.get('tool_name', '')
command = event_data.get('tool_input', {}).get('command', '')

if tool_name == 'launch-process' and 'deploy' in command:
    if user_email != 'admin@example.com':
        print("Only admins can deploy", file=sys.stderr)
        sys.exit(2)

sys.exit(0)
