"""Log lines as an operator's tools read them: the time of every line, JSON or text, the
API's or gunicorn's, in ISO 8601 with its ``T`` and its zone."""

import io
import json
import logging.config
import re

import pytest

from service import logs

ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def _line(formatter: logging.Formatter) -> str:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(formatter)
    log = logging.Logger("spitlog.test")
    log.addHandler(handler)
    log.warning("a line")
    return out.getvalue().strip()


def test_a_json_line_has_its_time_in_iso_8601_with_its_zone():
    line = json.loads(_line(logs.formatter("json")))
    assert ISO.fullmatch(line["time"]), line
    assert (line["level"], line["message"]) == ("WARNING", "a line")


def test_a_text_line_starts_with_its_time_in_iso_8601():
    line = _line(logs.formatter("text"))
    assert ISO.fullmatch(line.split()[0]), line


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_gunicorn_lines_have_the_same_time(fmt):
    spec = dict(logs.gunicorn_config("INFO", fmt)["formatters"]["main"])
    factory = logging.config.DictConfigurator({}).resolve(spec.pop("()"))
    line = _line(factory(**spec))
    stamp = json.loads(line)["time"] if fmt == "json" else line.split()[0]
    assert ISO.fullmatch(stamp), line
