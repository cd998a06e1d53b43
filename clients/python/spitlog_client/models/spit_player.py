from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.spit_player_player_type_0 import SpitPlayerPlayerType0
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
        name (None | str): the player's name, or a bot's
        player (None | SpitPlayerPlayerType0): an app's player (README.md, *Players*); null: anonymous
        spit_cards (int | list[str]): how many; after the game, the cards, top first
        stockpiles (list[SpitStockpile | SpitStockpileCards]):
        rating_diff (int | Unset): a rated game, once rated: the player's new rating minus the old
        pool (list[str] | Unset): after the game: the cards taken and not dealt (only when there are some)
    """

    seat: int
    kind: None | str
    cards: int
    ready: bool
    called: bool
    name: None | str
    player: None | SpitPlayerPlayerType0
    spit_cards: int | list[str]
    stockpiles: list[SpitStockpile | SpitStockpileCards]
    rating_diff: int | Unset = UNSET
    pool: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.spit_player_player_type_0 import SpitPlayerPlayerType0  # noqa: PLC0415
        from ..models.spit_stockpile import SpitStockpile  # noqa: PLC0415

        seat = self.seat

        kind: None | str
        kind = self.kind

        cards = self.cards

        ready = self.ready

        called = self.called

        name: None | str
        name = self.name

        player: dict[str, Any] | None
        if isinstance(self.player, SpitPlayerPlayerType0):
            player = self.player.to_dict()
        else:
            player = self.player

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

        rating_diff = self.rating_diff

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
                "name": name,
                "player": player,
                "spit_cards": spit_cards,
                "stockpiles": stockpiles,
            }
        )
        if rating_diff is not UNSET:
            field_dict["rating_diff"] = rating_diff
        if pool is not UNSET:
            field_dict["pool"] = pool

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spit_player_player_type_0 import SpitPlayerPlayerType0  # noqa: PLC0415
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

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        def _parse_player(data: object) -> None | SpitPlayerPlayerType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                player_type_0 = SpitPlayerPlayerType0.from_dict(data)

                return player_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpitPlayerPlayerType0, data)

        player = _parse_player(d.pop("player"))

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

        rating_diff = d.pop("rating_diff", UNSET)

        pool = cast(list[str], d.pop("pool", UNSET))

        spit_player = cls(
            seat=seat,
            kind=kind,
            cards=cards,
            ready=ready,
            called=called,
            name=name,
            player=player,
            spit_cards=spit_cards,
            stockpiles=stockpiles,
            rating_diff=rating_diff,
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
