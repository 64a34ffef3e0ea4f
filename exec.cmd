@rem npm runs "exec node scripts/…" (package.json: start, server) through cmd.exe on Windows, which
@rem finds this file: it runs its arguments. On POSIX sh, exec puts node in the shell's place, so
@rem a signal npm passes on reaches the server (docs/decisions.md, "Desktop shell").
@%*
