"""Where a rule ID is explained: its entry in the rules reference (docs/rules.md, served
at ``/docs/rules``), linked from every refusal that names a rule (``rule_url``) and
every game's ``result`` (``result_url``).

>>> rule_url("P-1"), rule_url(None)
('/docs/rules#P-1', None)
"""

PATH = "/docs/rules"


def rule_url(rule: str | None) -> str | None:
    """The address (an absolute path) of ``rule``'s entry; None for no rule."""
    return None if rule is None else f"{PATH}#{rule}"
