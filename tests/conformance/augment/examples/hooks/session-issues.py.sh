#!/usr/bin/env python3
import sys
import requests

# Load current issues from issue tracker
response = requests.get('https://api.example.com/issues')
issues = response.text

# Output to stdout - this will be injected as context for the agent
print("Current open issues:")
print(issues)

sys.exit(0)
