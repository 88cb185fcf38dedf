"""The bench's driver for Python's robots.txt parsers (the protocol of ../peers/external.mjs).

    python3 python_driver.py urllib|protego --bench CORPUS_DIR PROBES_TSV AGENT REPS
    python3 python_driver.py urllib|protego --verdicts CORPUS_DIR PROBES_TSV AGENT
    python3 python_driver.py urllib|protego --version

Each parser is called as its users call it: urllib.robotparser as RobotFileParser.read()
does (the body decoded as strict UTF-8, which raises on a file that is not, then
parse(lines) and can_fetch(agent, url)); protego as Scrapy does (the body decoded as UTF-8
ignoring errors, Protego.parse(text), can_fetch(url, agent)). Everything is loaded first,
then timed in process (perf_counter, no I/O; with ROBOTS_BENCH_CLOCK=thread in the
environment, thread_time: the thread's CPU time, as the bench's rounds time). A file the parser throws on gives "allowed"
for its URLs (a crawler that catches the error and fetches), marked "threw".
"""
import json
import os
import sys
import time

# The bench's rounds (bench/rounds.mjs) time every engine in CPU time.
clock = time.thread_time if os.environ.get('ROBOTS_BENCH_CLOCK') == 'thread' else time.perf_counter


def engine(name):
    if name == 'urllib':
        import platform
        import urllib.robotparser

        def parse(body):
            rp = urllib.robotparser.RobotFileParser()
            rp.parse(body.decode('utf-8').splitlines())
            return rp

        return parse, lambda rp, agent, url: rp.can_fetch(agent, url), 'CPython %s' % platform.python_version()
    if name == 'protego':
        import platform
        from importlib.metadata import version
        from protego import Protego

        def parse(body):
            return Protego.parse(body.decode('utf-8', errors='ignore'))

        return parse, lambda rp, agent, url: rp.can_fetch(url, agent), '%s (CPython %s)' % (version('protego'), platform.python_version())
    raise SystemExit('unknown engine %r' % name)


def load(corpus_dir, probes):
    hosts = []
    with open(probes, encoding='utf-8', newline='\n') as f:
        for line in f:
            line = line.rstrip('\n')
            if '\t' not in line:
                continue
            host, url = line.split('\t', 1)
            if not hosts or hosts[-1][0] != host:
                with open('%s/%s' % (corpus_dir, host), 'rb') as b:
                    hosts.append((host, b.read(), []))
            hosts[-1][2].append(url)
    return hosts


def safe_parse(parse, body):
    try:
        return parse(body)
    except Exception:
        return None


def verdicts(parse, check, hosts, agent):
    out = []
    for host, body, urls in hosts:
        rp = safe_parse(parse, body)
        for url in urls:
            threw = rp is None
            allowed = True
            if not threw:
                try:
                    allowed = bool(check(rp, agent, url))
                except Exception:
                    threw = True
            out.append('%s\t%s\t%s\t%s\t-%s\n' % (agent, host, url, 'allowed' if allowed else 'disallowed', '\tthrew' if threw else ''))
    sys.stdout.write(''.join(out))


def bench(name, parse, check, ver, hosts, agent, reps):
    files = len(hosts)
    nurls = sum(len(u) for _, _, u in hosts)
    nbytes = sum(len(b) for _, b, _ in hosts)
    parsed = [safe_parse(parse, b) for _, b, _ in hosts]
    sink = 0

    def checks(rp, urls):
        n = 0
        for url in urls:
            try:
                n += check(rp, agent, url)
            except Exception:
                n += 1
        return n

    for r in range(reps):
        t0 = clock()
        for _, body, _ in hosts:
            sink += safe_parse(parse, body) is not None
        t1 = clock()
        for _, body, urls in hosts:
            rp = safe_parse(parse, body)
            sink += 1 if rp is None else checks(rp, urls[:1])
        t2 = clock()
        for _, body, urls in hosts:
            rp = safe_parse(parse, body)
            sink += len(urls) if rp is None else checks(rp, urls)
        t3 = clock()
        for rp, (_, _, urls) in zip(parsed, hosts):
            sink += len(urls) if rp is None else checks(rp, urls)
        t4 = clock()
        sys.stderr.write('rep %d: parse %.6fs first %.6fs mix %.6fs match %.6fs\n' % (r, t1 - t0, t2 - t1, t3 - t2, t4 - t3))
    print(json.dumps({'engine': name, 'version': ver, 'agent': agent, 'files': files, 'urls': nurls, 'bytes': nbytes, 'reps': reps, 'sink': sink}))


def main(argv):
    name, mode = argv[1], argv[2]
    parse, check, ver = engine(name)
    if mode == '--version':
        print(ver)
    elif mode == '--verdicts':
        verdicts(parse, check, load(argv[3], argv[4]), argv[5])
    elif mode == '--bench':
        bench(name, parse, check, ver, load(argv[3], argv[4]), argv[5], int(argv[6]))
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
