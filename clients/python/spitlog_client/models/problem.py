from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.problem_errors import ProblemErrors


T = TypeVar("T", bound="Problem")


@_attrs_define
class Problem:
    """
    Attributes:
        type_ (str):
        title (str):
        status (int):
        detail (str):
        rule (str | Unset): the ID of the rule an illegal action breaks
        rule_url (str | Unset): with `rule`: its entry of the rules reference, `/docs/rules#<ID>`
        errors (ProblemErrors | Unset): field -> messages
        version (int | Unset): the game's current version
    """

    type_: str
    title: str
    status: int
    detail: str
    rule: str | Unset = UNSET
    rule_url: str | Unset = UNSET
    errors: ProblemErrors | Unset = UNSET
    version: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        title = self.title

        status = self.status

        detail = self.detail

        rule = self.rule

        rule_url = self.rule_url

        errors: dict[str, Any] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = self.errors.to_dict()

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
                "detail": detail,
            }
        )
        if rule is not UNSET:
            field_dict["rule"] = rule
        if rule_url is not UNSET:
            field_dict["rule_url"] = rule_url
        if errors is not UNSET:
            field_dict["errors"] = errors
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.problem_errors import ProblemErrors  # noqa: PLC0415

        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        detail = d.pop("detail")

        rule = d.pop("rule", UNSET)

        rule_url = d.pop("rule_url", UNSET)

        _errors = d.pop("errors", UNSET)
        errors: ProblemErrors | Unset
        if isinstance(_errors, Unset):
            errors = UNSET
        else:
            errors = ProblemErrors.from_dict(_errors)

        version = d.pop("version", UNSET)

        problem = cls(
            type_=type_,
            title=title,
            status=status,
            detail=detail,
            rule=rule,
            rule_url=rule_url,
            errors=errors,
            version=version,
        )

        problem.additional_properties = d
        return problem

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
