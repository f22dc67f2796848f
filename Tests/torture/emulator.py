"""One private jump-emulator for the torture run, and the few admin calls it needs (docs/emulator.md)."""
import http.client
import json
import os
import select
import signal
import subprocess
import threading
import time
import urllib.parse

PASSWORD = "torture-horse-42"


class EmulatorError(Exception):
    pass


class Emulator:
    def __init__(self, binary, workdir):
        self.log_path = os.path.join(workdir, "emulator.log")
        options = ["--port", "0", "--db", os.path.join(workdir, "emu.db")]
        # Cheap bcrypt keeps per-iteration user creation and sign-ins fast; only if this build has it.
        helptext = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=20).stdout
        if "--password-hash-cost" in helptext:
            options += ["--password-hash-cost", "4"]
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen([binary] + options, stdout=subprocess.PIPE, stderr=self.log)
        ready, _, _ = select.select([self.process.stdout], [], [], 30)
        line = self.process.stdout.readline().decode().strip() if ready else ""
        if not line.startswith("http://"):
            self.stop()
            raise EmulatorError(f"the emulator printed no base URL (log: {self.log_path})")
        self.url = line
        parsed = urllib.parse.urlparse(line)
        self.host, self.port = parsed.hostname, parsed.port
        # Nothing else is written to stdout, but keep draining it so the emulator can never block on it.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        deadline = time.monotonic() + 30
        while self.request("GET", "/")[0] != 200:
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise EmulatorError(f"the emulator did not answer GET / (log: {self.log_path})")
            time.sleep(0.05)

    def request(self, method, path, body=None, content_type="application/json"):
        """(HTTP status, parsed JSON or None); status 0 when the call failed. Loopback only, no proxies."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=20)
        try:
            headers = {"Content-Type": content_type} if body is not None else {}
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            try:
                return response.status, json.loads(data)
            except ValueError:
                return response.status, None
        except OSError:
            return 0, None
        finally:
            connection.close()

    def admin(self, method, path, payload=None):
        status, answer = self.request(method, path, None if payload is None else json.dumps(payload))
        if status not in (200, 201):
            raise EmulatorError(f"{method} {path}: HTTP {status} {answer}")
        return answer

    def fresh_users(self):
        """Deletes the default app's users (and so every session), then creates a and b, each with one
        profiles element whose json attributes take the big values. Returns {"A": (uuid, element id), ...}."""
        self.admin("POST", "/emulator/apps/jump-default-client/reset")
        users = {}
        for name in "AB":
            record = {"profiles": [{"identifier": f"torture-{name.lower()}"}]}
            user = self.admin("POST", "/emulator/users",
                              {"email": email(name), "password": PASSWORD, "record": record})["user"]
            users[name] = (user["uuid"], str(user["profiles"][0]["id"]))
        return users

    def user(self, uuid):
        """(record, active_sessions) from GET /emulator/users/{uuid}; (None, 0) when unreadable."""
        status, answer = self.request("GET", f"/emulator/users/{uuid}")
        if status != 200 or not isinstance(answer, dict):
            return None, 0
        return answer.get("user"), answer.get("active_sessions", 0)

    def token_retired(self, token):
        """True when Capture refuses this access token as unknown or retired (a refresh replaced it)."""
        body = urllib.parse.urlencode({"access_token": token})
        _, answer = self.request("POST", "/entity", body, "application/x-www-form-urlencoded")
        return (isinstance(answer, dict) and answer.get("stat") == "error" and answer.get("code") == 200
                and answer.get("argument_name") == "access_token")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()


def email(name):
    return f"{name.lower()}@torture.test"
