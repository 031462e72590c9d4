"""Trust, direnv style: hooks configured inside a workspace run only once a person has
allowed that workspace (``hookd allow``), and only while what was allowed is unchanged;
hook and settings files others could write are refused whatever the trust.

``files`` (who may write a file), ``digest`` (hashes, cached on the stat signature),
``scripts`` (the files a command names), ``store`` (the approvals on disk), ``snapshot``
(what ``hookd allow`` records), ``gate`` (the fire-time check) and ``ancestry`` (whether
the CLI runs inside a hook).
"""
