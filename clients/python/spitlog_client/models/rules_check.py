from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rules_check_deals_item import RulesCheckDealsItem


T = TypeVar("T", bound="RulesCheck")


@_attrs_define
class RulesCheck:
    """
    Attributes:
        ok (bool): every event is what the rules make of the actions
        checked (int): events confirmed
        first_bad (int | None | Unset): the version of the first event that fails
        reason (None | str | Unset):
        shuffle (str | Unset): the shuffle algorithm's version tag
        deals (list[RulesCheckDealsItem] | Unset): every deal, re-derived
    """

    ok: bool
    checked: int
    first_bad: int | None | Unset = UNSET
    reason: None | str | Unset = UNSET
    shuffle: str | Unset = UNSET
    deals: list[RulesCheckDealsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        checked = self.checked

        first_bad: int | None | Unset
        if isinstance(self.first_bad, Unset):
            first_bad = UNSET
        else:
            first_bad = self.first_bad

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        shuffle = self.shuffle

        deals: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.deals, Unset):
            deals = []
            for deals_item_data in self.deals:
                deals_item = deals_item_data.to_dict()
                deals.append(deals_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ok": ok,
                "checked": checked,
            }
        )
        if first_bad is not UNSET:
            field_dict["first_bad"] = first_bad
        if reason is not UNSET:
            field_dict["reason"] = reason
        if shuffle is not UNSET:
            field_dict["shuffle"] = shuffle
        if deals is not UNSET:
            field_dict["deals"] = deals

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rules_check_deals_item import RulesCheckDealsItem  # noqa: PLC0415

        d = dict(src_dict)
        ok = d.pop("ok")

        checked = d.pop("checked")

        def _parse_first_bad(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        first_bad = _parse_first_bad(d.pop("first_bad", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        shuffle = d.pop("shuffle", UNSET)

        _deals = d.pop("deals", UNSET)
        deals: list[RulesCheckDealsItem] | Unset = UNSET
        if _deals is not UNSET:
            deals = []
            for deals_item_data in _deals:
                deals_item = RulesCheckDealsItem.from_dict(deals_item_data)

                deals.append(deals_item)

        rules_check = cls(
            ok=ok,
            checked=checked,
            first_bad=first_bad,
            reason=reason,
            shuffle=shuffle,
            deals=deals,
        )

        rules_check.additional_properties = d
        return rules_check

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
