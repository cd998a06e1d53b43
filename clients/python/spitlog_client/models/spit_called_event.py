from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SpitCalledEvent")


@_attrs_define
class SpitCalledEvent:
    """A seat called spit (by the T-1 timeout when `by` says so).

    Attributes:
        version (int): the event's place in the log (1 = first)
        type_ (Literal['spit_called']):  Default: 'spit_called'.
        seat (int):
        by (None | str):
        at (float): when, in seconds since the epoch
    """

    version: int
    seat: int
    by: None | str
    at: float
    type_: Literal["spit_called"] = "spit_called"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        seat = self.seat

        by: None | str
        by = self.by

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "seat": seat,
                "by": by,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["spit_called"], d.pop("type"))
        if type_ != "spit_called":
            raise ValueError(f"type must match const 'spit_called', got '{type_}'")

        seat = d.pop("seat")

        def _parse_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        by = _parse_by(d.pop("by"))

        at = d.pop("at")

        spit_called_event = cls(
            version=version,
            type_=type_,
            seat=seat,
            by=by,
            at=at,
        )

        spit_called_event.additional_properties = d
        return spit_called_event

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
