#!/usr/bin/env python3
"""robots audit as a map/reduce on Dask distributed (docs/bulk.md, "On Dask distributed").

Map: a task per WARC file, `robots index --shards N` into an index of its own.
Audit: a task per shard i, `robots audit` over every index with `--shard i/N`,
writing its sites' lines and its summary. Reduce: one task, `robots audit merge`
of the N summaries: the summary of the whole, equal to one machine's run.

Each task runs the `robots` command on a worker: the WARCs and the work
directory must be on storage every worker reads (one machine, NFS, a FUSE mount).

  python3 scripts/audit-dask.py --scheduler tcp://10.0.0.1:8786 --shards 64 \\
      --work /mnt/audit CC-MAIN-*-robotstxt.warc.gz -- --ranks /mnt/tranco.csv --crawlers @ai

Arguments after `--` are given to every `robots audit` task. Needs Dask
distributed (Debian: python3-distributed).
"""
import argparse
import os
import shlex
import subprocess
import sys

from distributed import Client, get_worker


def run(command):
    """A task: the command (its stderr kept for the error when it fails); what it wrote (--out) and the worker that ran it."""
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
    return command[-1], str(get_worker().name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("warcs", nargs="+", help="WARC files of robots.txt captures")
    parser.add_argument("--scheduler", help="the scheduler's address (tcp://host:8786)")
    parser.add_argument("--scheduler-file", help="or the file the scheduler wrote (dask scheduler --scheduler-file)")
    parser.add_argument("--shards", type=int, default=16, help="host shards: audit tasks (default 16)")
    parser.add_argument("--work", required=True, help="a directory every worker reads and writes: idx/, sites/, sums/, summary.json")
    parser.add_argument("--robots", default="robots", help="the robots command on the workers (default: robots)")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args, audit_args = parser.parse_args(argv[:cut]), argv[cut + 1:]
    if (args.scheduler is None) == (args.scheduler_file is None):
        parser.error("give --scheduler ADDRESS or --scheduler-file FILE")
    robots = shlex.split(args.robots)
    work = os.path.abspath(args.work)
    for sub in ("idx", "sites", "sums"):
        os.makedirs(os.path.join(work, sub), exist_ok=True)
    n = args.shards

    client = Client(args.scheduler) if args.scheduler else Client(scheduler_file=args.scheduler_file)
    try:
        # Map: an index per WARC file (pure=False: a task per call, never a cached result).
        index_jobs = [
            robots + ["index", "--shards", str(n), "-q", os.path.abspath(warc), "--out", os.path.join(work, "idx", str(k))]
            for k, warc in enumerate(args.warcs)
        ]
        indexed = client.gather(client.map(run, index_jobs, pure=False))
        indexes = [out for out, _ in indexed]
        # Audit: a task per shard, over every index.
        from_indexes = [a for d in indexes for a in ("--robots-index", d)]
        audit_jobs = [
            robots + ["audit", *from_indexes, "--shard", f"{i}/{n}", *audit_args, "-q",
                      "--summary", os.path.join(work, "sums", f"{i}.json"), "--out", os.path.join(work, "sites", f"{i}.tsv")]
            for i in range(n)
        ]
        audited = client.gather(client.map(run, audit_jobs, pure=False))
        # Reduce: the summaries added up.
        merge = robots + ["audit", "merge", "-q", *(os.path.join(work, "sums", f"{i}.json") for i in range(n)), "--out", os.path.join(work, "summary.json")]
        summary, merged_on = client.submit(run, merge, pure=False).result()
    finally:
        client.close()
    workers = sorted({w for _, w in indexed + audited} | {merged_on})
    print(f"audit-dask: {len(indexed)} index tasks, {len(audited)} audit tasks and the merge, on {', '.join(workers)}", file=sys.stderr)
    print(summary)


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        sys.exit(f"audit-dask: {e}")
