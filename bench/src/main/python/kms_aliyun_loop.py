#!/usr/bin/env python3
"""Encrypt loop on Alibaba Cloud's Python KMS instance SDK (alibabacloud-dkms-gcs), for the kms-aliyun bench.

The Python peer of the raw Java SDK loop: THREADS threads each call Encrypt (DATA_SIZE bytes, retries
off) until the deadline; the first WARMUP seconds are not counted. Prints one JSON line with the
requests and errors of the measured window, its length and the process CPU (user + system) spent in
it, so the bench reports client CPU per request of the vendor's Python SDK beside ours.
Every loop is bounded by time; every call by the SDK's connect and read timeouts.

    python kms_aliyun_loop.py --endpoint 127.0.0.1:18600 --ca kms-ca.pem --client-key-file clientKey.json \
        --password-file clientKey_Password.txt --key-id key-trustload-aes256 --threads 32 --warmup 5 --seconds 20
"""
import argparse
import json
import os
import sys
import threading
import time

from openapi.models import Config
from openapi_util.models import RuntimeOptions
from sdk.client import Client
from sdk.models import EncryptRequest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--endpoint", required=True)
    ap.add_argument("--ca", required=True)
    ap.add_argument("--client-key-file", required=True)
    ap.add_argument("--password-file", required=True)
    ap.add_argument("--key-id", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--warmup", type=float, default=5)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--data-size", type=int, default=32)
    a = ap.parse_args()
    with open(a.password_file, encoding="utf-8") as f:
        password = f.read().strip()
    client = Client(Config(protocol="https", endpoint=a.endpoint, ca_file_path=a.ca,
                           client_key_file=a.client_key_file, password=password,
                           connect_timeout=5000, read_timeout=30000))
    runtime = RuntimeOptions(autoretry=False)
    # one call first: a wrong setup is one clear error, not a loop of them
    client.encrypt_with_options(EncryptRequest(key_id=a.key_id, plaintext=b"x" * a.data_size), runtime)

    start = time.monotonic()
    measure_from = start + a.warmup
    end = measure_from + a.seconds
    counts = {"ok": 0, "errors": 0}
    first_error = []
    lock = threading.Lock()
    mark = {}

    def work(i):
        data = bytes([i % 256]) * a.data_size
        ok = errors = 0
        while True:
            now = time.monotonic()
            if now >= end:
                break
            try:
                client.encrypt_with_options(EncryptRequest(key_id=a.key_id, plaintext=data), runtime)
                if now >= measure_from:
                    ok += 1
            except Exception as e:  # every SDK failure counts as an error of the measured window
                if now >= measure_from:
                    errors += 1
                if not first_error:
                    first_error.append(repr(e)[:300])
        with lock:
            counts["ok"] += ok
            counts["errors"] += errors

    def marker():
        # process CPU at the start and the end of the measured window
        time.sleep(max(0.0, measure_from - time.monotonic()))
        t = os.times()
        mark["cpu0"] = t.user + t.system
        mark["t0"] = time.monotonic()
        time.sleep(max(0.0, end - time.monotonic()))
        t = os.times()
        mark["cpu1"] = t.user + t.system
        mark["t1"] = time.monotonic()

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(a.threads)]
    m = threading.Thread(target=marker, daemon=True)
    m.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(a.warmup + a.seconds + 60)
    m.join(5)
    n = counts["ok"]
    cpu = mark.get("cpu1", 0) - mark.get("cpu0", 0)
    secs = mark.get("t1", 0) - mark.get("t0", 0)
    print(json.dumps({"requests": n, "errors": counts["errors"], "seconds": secs, "cpuSeconds": cpu,
                      "perSecond": n / secs if secs > 0 else 0, "cpuMsPerRequest": 1000 * cpu / n if n else None,
                      "firstError": first_error[0] if first_error else None,
                      "python": sys.version.split()[0]}))


if __name__ == "__main__":
    main()
