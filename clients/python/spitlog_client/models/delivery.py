from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """
    Attributes:
        id (str): the notification's id, the same at every try
        type_ (str | Unset): seat.joined, game.started, game.finished or game.event
        target (str | Unset):
        at (float | Unset): when it was tried, seconds since the epoch
        status (int | Unset): the target's HTTP status
        ms (int | Unset): how long the try took
        error (str | Unset): what went wrong, if it did
        outcome (str | Unset): `given up`: retried for SPITLOG_WEBHOOK_RETRY_S in vain
    """

    id: str
    type_: str | Unset = UNSET
    target: str | Unset = UNSET
    at: float | Unset = UNSET
    status: int | Unset = UNSET
    ms: int | Unset = UNSET
    error: str | Unset = UNSET
    outcome: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        target = self.target

        at = self.at

        status = self.status

        ms = self.ms

        error = self.error

        outcome = self.outcome

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if type_ is not UNSET:
            field_dict["type"] = type_
        if target is not UNSET:
            field_dict["target"] = target
        if at is not UNSET:
            field_dict["at"] = at
        if status is not UNSET:
            field_dict["status"] = status
        if ms is not UNSET:
            field_dict["ms"] = ms
        if error is not UNSET:
            field_dict["error"] = error
        if outcome is not UNSET:
            field_dict["outcome"] = outcome

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type", UNSET)

        target = d.pop("target", UNSET)

        at = d.pop("at", UNSET)

        status = d.pop("status", UNSET)

        ms = d.pop("ms", UNSET)

        error = d.pop("error", UNSET)

        outcome = d.pop("outcome", UNSET)

        delivery = cls(
            id=id,
            type_=type_,
            target=target,
            at=at,
            status=status,
            ms=ms,
            error=error,
            outcome=outcome,
        )

        delivery.additional_properties = d
        return delivery

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
