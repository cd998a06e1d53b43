from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Ticket")


@_attrs_define
class Ticket:
    """
    Attributes:
        ticket (str): single use; offer it as a subprotocol
        expires_at (str): ISO 8601, UTC: about 30 s from now
        protocols (list[str]): the subprotocols to offer: `spitlog.v1` and `spitlog.ticket.<ticket>`
    """

    ticket: str
    expires_at: str
    protocols: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ticket = self.ticket

        expires_at = self.expires_at

        protocols = self.protocols

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ticket": ticket,
                "expires_at": expires_at,
                "protocols": protocols,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ticket = d.pop("ticket")

        expires_at = d.pop("expires_at")

        protocols = cast(list[str], d.pop("protocols"))

        ticket = cls(
            ticket=ticket,
            expires_at=expires_at,
            protocols=protocols,
        )

        ticket.additional_properties = d
        return ticket

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
