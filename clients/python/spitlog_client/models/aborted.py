from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aborted_by import AbortedBy

T = TypeVar("T", bound="Aborted")


@_attrs_define
class Aborted:
    """A game aborted under RULES T-6, no one winning: by whom and why.

    Attributes:
        by (AbortedBy): the operator (`spitlog admin abort`), or the service (a hosted bot whose decisions it could not
            run)
        why (None | str): why, in words (null: an operator's abort logged before T-6)
    """

    by: AbortedBy
    why: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by = self.by.value

        why: None | str
        why = self.why

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "by": by,
                "why": why,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        by = AbortedBy(d.pop("by"))

        def _parse_why(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        why = _parse_why(d.pop("why"))

        aborted = cls(
            by=by,
            why=why,
        )

        aborted.additional_properties = d
        return aborted

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
