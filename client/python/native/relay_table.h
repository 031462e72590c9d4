/* What the native hookd-relay answers when it cannot reach hookd, per agent, and the
 * words and bounds it shares with the Python relay (hookd/relay.py): generated from the
 * agents' packages and hookd.relay by `python scripts/regenerate.py`
 * (hookd.daemon.relay_table.render_c); do not edit. A template's "{message}" stands for
 * the relay's one line, "{message_json}" for it as a JSON string. */

#ifndef HOOKD_RELAY_TABLE_H
#define HOOKD_RELAY_TABLE_H

#define RELAY_VERSION "0.1.0"
#define ON_ERROR_ENV "HOOKD_RELAY_ON_ERROR"
#define NO_SPAWN_ENV "HOOKD_NO_SPAWN"
#define WAIT_ENV "HOOKD_RELAY_WAIT_S"
#define USAGE "usage: hookd-relay AGENT [ENTRY]   (AGENT: claude, cline, cline-sdk, augment, codex, gemini, copilot, droid, qwen): the agent runs it as a hook, with the event on stdin ('hookd relay install' writes it)"
#define FIX "fix the entry, or write it again with 'hookd relay install'"
#define AGENT_LIST "claude, cline, cline-sdk, augment, codex, gemini, copilot, droid, qwen"
#define WAIT_S 3600.0
#define WAIT_MAX_S 1000000.0
#define SPAWN_WAIT_S 10.0
#define START_ERROR_MAX 400

static const char *const SERVICE_PREFIXES[] = {"HOOKD_", "LISTEN_", "NOTIFY_SOCKET", "WATCHDOG_", 0};

struct relay_runner { const char *event; int agent; };
struct relay_answer { const char *out; const char *err; int code; };
struct relay_facts {
    const char *name; int args; const char *event;
    const struct relay_runner *runners; struct relay_answer on_continue, on_block;
};

static const struct relay_runner RUNNERS_0[] = {  /* claude */
    {0, -1},
};
static const struct relay_runner RUNNERS_1[] = {  /* cline */
    {"agent_start", 2},
    {"agent_resume", 2},
    {"agent_abort", 2},
    {"agent_end", 2},
    {"agent_error", 2},
    {"tool_call", 2},
    {"tool_result", 2},
    {"prompt_submit", 2},
    {"pre_compact", 2},
    {"session_shutdown", 2},
    {0, -1},
};
static const struct relay_runner RUNNERS_2[] = {  /* cline-sdk */
    {"TaskStart", 1},
    {"TaskResume", 1},
    {"TaskCancel", 1},
    {"TaskComplete", 1},
    {"UserPromptSubmit", 1},
    {"PreToolUse", 1},
    {"PostToolUse", 1},
    {"PreCompact", 1},
    {"Notification", 1},
    {0, -1},
};
static const struct relay_runner RUNNERS_3[] = {  /* augment */
    {0, -1},
};
static const struct relay_runner RUNNERS_4[] = {  /* codex */
    {0, -1},
};
static const struct relay_runner RUNNERS_5[] = {  /* gemini */
    {0, -1},
};
static const struct relay_runner RUNNERS_6[] = {  /* copilot */
    {0, -1},
};
static const struct relay_runner RUNNERS_7[] = {  /* droid */
    {0, -1},
};
static const struct relay_runner RUNNERS_8[] = {  /* qwen */
    {0, -1},
};

static const struct relay_facts AGENTS[] = {
    {"claude", 0, "hook_event_name", RUNNERS_0,
     {"", "{message}\012", 1},
     {"", "{message}\012", 2}},
    {"cline", 1, "hookName", RUNNERS_1,
     {"", "{message}\012", 1},
     {"{\"cancel\": true, \"contextModification\": \"\", \"errorMessage\": {message_json}}", "{message}\012", 0}},
    {"cline-sdk", 1, "hookName", RUNNERS_2,
     {"{\"context\": {message_json}}", "{message}\012", 1},
     {"{\"cancel\": true, \"errorMessage\": {message_json}}", "{message}\012", 0}},
    {"augment", 1, "hook_event_name", RUNNERS_3,
     {"", "{message}\012", 1},
     {"", "{message}\012", 2}},
    {"codex", 1, "hook_event_name", RUNNERS_4,
     {"{\"systemMessage\": {message_json}}", "{message}\012", 0},
     {"", "{message}\012", 2}},
    {"gemini", 0, "hook_event_name", RUNNERS_5,
     {"", "{message}\012", 1},
     {"{\"decision\": \"deny\", \"reason\": {message_json}, \"continue\": false, \"stopReason\": {message_json}}", "{message}\012", 0}},
    {"copilot", 2, "", RUNNERS_6,
     {"", "{message}\012", 0},
     {"{\"permissionDecision\": \"deny\", \"permissionDecisionReason\": {message_json}, \"behavior\": \"deny\", \"message\": {message_json}}", "{message}\012", 2}},
    {"droid", 1, "hook_event_name", RUNNERS_7,
     {"", "{message}\012", 1},
     {"{\"hookSpecificOutput\": {\"permissionDecision\": \"deny\", \"permissionDecisionReason\": {message_json}}}", "{message}\012", 1}},
    {"qwen", 0, "hook_event_name", RUNNERS_8,
     {"", "{message}\012", 1},
     {"{\"decision\": \"deny\", \"reason\": {message_json}, \"continue\": false, \"stopReason\": {message_json}}", "{message}\012", 0}},
    {0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}},
};

static const struct relay_runner NO_RUNNERS[] = {{0, -1}};
static const struct relay_facts EXIT_CODES =
    {"", 0, "", NO_RUNNERS,
     {"", "{message}\012", 1},
     {"", "{message}\012", 2}};

#endif
