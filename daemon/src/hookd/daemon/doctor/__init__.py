"""``hookd doctor``: is this set-up whole? Each module probes one thing (the daemons, the
relay entries, the service, the state files, the agents) within a deadline and says what
it found as ``findings.Finding`` values, each problem with the command that fixes it;
``cli/doctor_command.py`` runs them and prints the report."""
