#!/usr/bin/python3
"""A single-node OpenStack Swift with its s3api middleware, on loopback, for tests and benchmarks.

Usage: /usr/bin/python3 swift_s3.py <state-dir> <s3-port>

Writes its configuration, rings and devices under <state-dir> (nothing is read from /etc/swift),
starts memcached and the proxy, account, container and object servers as child processes (one
process each: workers = 0), prints "ready <s3-port>" once a container and an object can be written, and runs until
SIGTERM or SIGINT, when it stops every child. Ports: s3-port (proxy) and the four after it
(account, container, object, memcached). Run with Debian's /usr/bin/python3 (python3-swift).
S3 credentials: access key "test:tester", secret "testing" (tempauth).
See ../../../shared/design/toolchain.md for why each setting is here.
"""
import getpass
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

SERVERS = ('account', 'container', 'object')


def port_busy(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(('127.0.0.1', port)) == 0


def write(path, text):
    with open(path, 'w') as handle:
        handle.write(text)


def configure(state, s3_port):
    ports = {'proxy': s3_port, 'account': s3_port + 1, 'container': s3_port + 2,
             'object': s3_port + 3, 'memcached': s3_port + 4}
    devices = os.path.join(state, 'devices')
    os.makedirs(os.path.join(devices, 'd1'), exist_ok=True)
    user = getpass.getuser()
    write(os.path.join(state, 'swift.conf'), """
[swift-hash]
swift_hash_path_suffix = sealdrop-test
swift_hash_path_prefix = sealdrop-test

[storage-policy:0]
name = Policy-0
default = yes

[swift-constraints]
max_file_size = 5368709122
""")
    common = f"""
[DEFAULT]
bind_ip = 127.0.0.1
workers = 0
user = {user}
swift_dir = {state}
devices = {devices}
mount_check = false
log_level = WARNING
"""
    # An object PUT waits for its container's listing to take it (by default only 1 s, then the
    # update is left "async pending" for an updater this server does not run): S3's ListParts is
    # read-after-write consistent, and a part missing from the listing under load made a HEAD
    # report an offset below one already acknowledged.
    OBJECT_SERVER_EXTRA = {'object': 'container_update_timeout = 60\n'}
    for server in SERVERS:
        write(os.path.join(state, f'{server}-server.conf'), common + f"""
bind_port = {ports[server]}

[pipeline:main]
pipeline = {server}-server

[app:{server}-server]
use = egg:swift#{server}
""" + OBJECT_SERVER_EXTRA.get(server, ''))
    # S3 allows 10,000 parts per upload; s3api and SLO default to 1,000 (a 5 GiB object in 5 MiB
    # parts needs 1,024).
    write(os.path.join(state, 'proxy-server.conf'), common + f"""
bind_port = {ports['proxy']}

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
allow_account_management = true

[filter:s3api]
use = egg:swift#s3api
location = us-east-1
max_upload_part_num = 10000
max_parts_listing = 10000

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:{ports['memcached']}

[filter:catch_errors]
use = egg:swift#catch_errors

[filter:gatekeeper]
use = egg:swift#gatekeeper

[filter:healthcheck]
use = egg:swift#healthcheck

[filter:proxy-logging]
use = egg:swift#proxy_logging

[filter:listing_formats]
use = egg:swift#listing_formats

[filter:copy]
use = egg:swift#copy

[filter:slo]
use = egg:swift#slo
max_manifest_segments = 10000
max_manifest_size = 16777216

[filter:dlo]
use = egg:swift#dlo
""")
    from swift.common.ring import RingBuilder
    for server in SERVERS:
        ring = os.path.join(state, f'{server}.ring.gz')
        if os.path.exists(ring):
            continue
        builder = RingBuilder(6, 1, 1)
        builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': ports[server],
                         'device': 'd1', 'weight': 100})
        builder.rebalance()
        builder.get_ring().save(ring)
    return ports


def run_server(state, name):
    """The child's body: one Swift server in this process, until it is terminated."""
    from swift.common import storage_policy, utils
    from swift.common.wsgi import run_wsgi
    utils.set_swift_dir(state)
    storage_policy.reload_storage_policies()
    os._exit(run_wsgi(os.path.join(state, f'{name}-server.conf'), f'{name}-server') or 0)


# How long the whole store may take to answer once its servers are started (s3-server.ts waits
# longer, so that this script reports why it gave up).
STORE_READY_SECONDS = 150


def store_ready(port, deadline):
    """True once the whole store answers, not only the proxy: a container and an object are written
    and removed through the Swift API (account, container and object servers all take part). The
    proxy's healthcheck alone answered while a backend server was still starting, and the first S3
    call then got 503 "Please reduce your request rate" (seen on a loaded machine in test:scale)."""
    base = f'http://127.0.0.1:{port}'
    steps = (('PUT', '/swift-s3-ready'), ('PUT', '/swift-s3-ready/probe'),
             ('DELETE', '/swift-s3-ready/probe'), ('DELETE', '/swift-s3-ready'))
    last_error = None
    while time.time() < deadline:
        try:
            login = urllib.request.Request(f'{base}/auth/v1.0', headers={'X-Auth-User': 'test:tester', 'X-Auth-Key': 'testing'})
            with urllib.request.urlopen(login, timeout=2) as answer:
                token, account = answer.headers['X-Auth-Token'], answer.headers['X-Storage-Url']
            for method, path in steps:
                request = urllib.request.Request(account + path, method=method, headers={'X-Auth-Token': token},
                                                 data=b'' if method == 'PUT' else None)
                with urllib.request.urlopen(request, timeout=5):
                    pass
            return True
        except (OSError, TypeError) as error:
            # Refused, timed out or an HTTP error (urllib's are OSErrors); TypeError: no storage URL yet.
            last_error = error
        time.sleep(0.2)
    print(f'swift_s3: the last try failed with {last_error!r}', file=sys.stderr, flush=True)
    return False


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: swift_s3.py <state-dir> <s3-port>')
    state = os.path.abspath(sys.argv[1])
    s3_port = int(sys.argv[2])
    os.makedirs(state, exist_ok=True)
    busy = [p for p in range(s3_port, s3_port + 5) if port_busy(p)]
    if busy:
        sys.exit(f'swift_s3: port {busy[0]} is already in use; choose another --port')
    ports = configure(state, s3_port)
    children = []
    memcached_args = ['memcached', '-l', '127.0.0.1', '-p', str(ports['memcached']), '-U', '0', '-m', '64']
    if os.geteuid() == 0:
        memcached_args += ['-u', 'root']
    children.append(subprocess.Popen(memcached_args).pid)
    for name in ('account', 'container', 'object', 'proxy'):
        pid = os.fork()
        if pid == 0:
            run_server(state, name)
        children.append(pid)

    def signal_children():
        for child in children:
            try:
                os.kill(child, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def stop(*_):
        signal_children()
        for child in children:
            try:
                os.waitpid(child, 0)
            except ChildProcessError:
                pass
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        serve(ports, children, stop)
    finally:
        # Whatever ends this script (a caller gone, so that writing "ready" to it failed) ends its
        # servers too: left running, they held the ports until the next run found them busy.
        signal_children()


def serve(ports, children, stop):
    # Seconds on a quiet machine, minutes on a loaded one (docs/operations.md, "CI on that machine").
    print('swift_s3: servers started; waiting for the store to answer', file=sys.stderr, flush=True)
    if not store_ready(ports['proxy'], time.time() + STORE_READY_SECONDS):
        print(f'swift_s3: the store did not answer within {STORE_READY_SECONDS} s', file=sys.stderr, flush=True)
        stop()
    print(f'ready {ports["proxy"]}', flush=True)
    # A child that dies takes the store with it: stop everything so the caller notices.
    while True:
        pid, _ = os.wait()
        if pid in children:
            print(f'swift_s3: child {pid} exited; stopping', file=sys.stderr, flush=True)
            children.remove(pid)
            stop()


if __name__ == '__main__':
    main()
