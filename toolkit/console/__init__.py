"""What a command shows and writes, for every layer that reports to the user: output files validated up front
and written all or nothing (:mod:`.outputs`), the progress line on a terminal (:mod:`.progress`)."""
