from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.spit_stockpile import SpitStockpile
    from ..models.spit_stockpile_cards import SpitStockpileCards


T = TypeVar("T", bound="SpitPlayer")


@_attrs_define
class SpitPlayer:
    """A seat in Spit.

    Attributes:
        seat (int):
        kind (None | str): human, bot:...; null while free
        cards (int): every card the player holds (C-3)
        ready (bool):
        called (bool): has called spit in this stalemate
        spit_cards (int | list[str]): how many; after the game, the cards, top first
        stockpiles (list[SpitStockpile | SpitStockpileCards]):
        pool (list[str] | Unset): after the game: the cards taken and not dealt (only when there are some)
    """

    seat: int
    kind: None | str
    cards: int
    ready: bool
    called: bool
    spit_cards: int | list[str]
    stockpiles: list[SpitStockpile | SpitStockpileCards]
    pool: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.spit_stockpile import SpitStockpile  # noqa: PLC0415

        seat = self.seat

        kind: None | str
        kind = self.kind

        cards = self.cards

        ready = self.ready

        called = self.called

        spit_cards: int | list[str]
        if isinstance(self.spit_cards, list):
            spit_cards = self.spit_cards

        else:
            spit_cards = self.spit_cards

        stockpiles = []
        for stockpiles_item_data in self.stockpiles:
            stockpiles_item: dict[str, Any]
            if isinstance(stockpiles_item_data, SpitStockpile):
                stockpiles_item = stockpiles_item_data.to_dict()
            else:
                stockpiles_item = stockpiles_item_data.to_dict()

            stockpiles.append(stockpiles_item)

        pool: list[str] | Unset = UNSET
        if not isinstance(self.pool, Unset):
            pool = self.pool

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seat": seat,
                "kind": kind,
                "cards": cards,
                "ready": ready,
                "called": called,
                "spit_cards": spit_cards,
                "stockpiles": stockpiles,
            }
        )
        if pool is not UNSET:
            field_dict["pool"] = pool

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spit_stockpile import SpitStockpile  # noqa: PLC0415
        from ..models.spit_stockpile_cards import SpitStockpileCards  # noqa: PLC0415

        d = dict(src_dict)
        seat = d.pop("seat")

        def _parse_kind(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kind = _parse_kind(d.pop("kind"))

        cards = d.pop("cards")

        ready = d.pop("ready")

        called = d.pop("called")

        def _parse_spit_cards(data: object) -> int | list[str]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                spit_cards_type_1 = cast(list[str], data)

                return spit_cards_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[str], data)

        spit_cards = _parse_spit_cards(d.pop("spit_cards"))

        stockpiles = []
        _stockpiles = d.pop("stockpiles")
        for stockpiles_item_data in _stockpiles:

            def _parse_stockpiles_item(data: object) -> SpitStockpile | SpitStockpileCards:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    stockpiles_item_type_0 = SpitStockpile.from_dict(data)

                    return stockpiles_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                stockpiles_item_type_1 = SpitStockpileCards.from_dict(data)

                return stockpiles_item_type_1

            stockpiles_item = _parse_stockpiles_item(stockpiles_item_data)

            stockpiles.append(stockpiles_item)

        pool = cast(list[str], d.pop("pool", UNSET))

        spit_player = cls(
            seat=seat,
            kind=kind,
            cards=cards,
            ready=ready,
            called=called,
            spit_cards=spit_cards,
            stockpiles=stockpiles,
            pool=pool,
        )

        spit_player.additional_properties = d
        return spit_player

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
