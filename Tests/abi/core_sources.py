"""What the config checks read (check_config_reads.py, check_config_defaults.py): the config keys of
include/jump_api.json, and the core's Swift files as text without comments."""
import json
import os
import re

CORE = "Sources/JumpCore"
COMMENTS = r"//[^\n]*|/\*.*?\*/"


def config_keys(root):
    with open(os.path.join(root, "include", "jump_api.json"), encoding="utf-8") as f:
        return [k["name"] for k in json.load(f)["config_keys"]]


def core_texts(root, skip=(), comments=COMMENTS, strings=False):
    """{path: text} of the Swift files of Sources/JumpCore but `skip` (paths from root), comments (the regex
    `comments`) left out, and string literals emptied when `strings` is true."""
    texts = {}
    for directory, _, files in sorted(os.walk(os.path.join(root, CORE))):
        for name in sorted(files):
            path = os.path.join(directory, name)
            rel = os.path.relpath(path, root)
            if not name.endswith(".swift") or rel in skip:
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = re.sub(comments, "", f.read(), flags=re.S)
            if strings:
                text = re.sub(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"', '""', text)
            texts[rel] = text
    return texts
