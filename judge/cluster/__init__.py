"""Judge hosts: the judge's cases run on a dask.distributed cluster of `judge worker`
machines, over mutual TLS. The modules, one per arrow:

- `address`: what `--scheduler` and `judge worker` accept, and the TLS settings of a role;
- `certs`: `judge cluster certs` (a CA and the certificates of scheduler, workers and clients);
- `needs`: what a client needs of a worker (judge code, sandbox, toolchains) and the check;
- `remote`: what runs on a worker (problem data and builds cached by content hash, a case);
- `engine`: the client side used by grade, verify and serve;
- `hosts`: the long-running `judge scheduler` and `judge worker` commands.
"""
