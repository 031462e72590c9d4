#!/usr/bin/env python3
import sys
import json

event_data = json.load(sys.stdin)

hook_event = event_data['hook_event_name']
tool_name = event_data.get('tool_name', '')
conv_id = event_data['conversation_id']

print(f"Event: {hook_event}, Tool: {tool_name}, Conversation: {conv_id}")
