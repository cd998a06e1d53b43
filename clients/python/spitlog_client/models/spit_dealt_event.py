from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.spit_stockpile import SpitStockpile


T = TypeVar("T", bound="SpitDealtEvent")


@_attrs_define
class SpitDealtEvent:
    """Spit: the cards were dealt into each seat's stockpiles and spit cards. While the game runs a viewer sees less of:
    stockpiles, spit_cards.

        Attributes:
            version (int): the event's place in the log (1 = first)
            type_ (Literal['spit_dealt']):  Default: 'spit_dealt'.
            round_ (int):
            nonces (list[int]):
            stockpiles (list[list[list[str]]] | list[list[SpitStockpile]]):
            spit_cards (list[int] | list[list[str]]):
            at (float): when, in seconds since the epoch
    """

    version: int
    round_: int
    nonces: list[int]
    stockpiles: list[list[list[str]]] | list[list[SpitStockpile]]
    spit_cards: list[int] | list[list[str]]
    at: float
    type_: Literal["spit_dealt"] = "spit_dealt"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        type_ = self.type_

        round_ = self.round_

        nonces = self.nonces

        stockpiles: list[list[dict[str, Any]]] | list[list[list[str]]]
        if isinstance(self.stockpiles, list):
            stockpiles = []
            for stockpiles_type_0_item_data in self.stockpiles:
                stockpiles_type_0_item = []
                for stockpiles_type_0_item_item_data in stockpiles_type_0_item_data:
                    stockpiles_type_0_item_item = stockpiles_type_0_item_item_data

                    stockpiles_type_0_item.append(stockpiles_type_0_item_item)

                stockpiles.append(stockpiles_type_0_item)

        else:
            stockpiles = []
            for stockpiles_type_1_item_data in self.stockpiles:
                stockpiles_type_1_item = []
                for stockpiles_type_1_item_item_data in stockpiles_type_1_item_data:
                    stockpiles_type_1_item_item = stockpiles_type_1_item_item_data.to_dict()
                    stockpiles_type_1_item.append(stockpiles_type_1_item_item)

                stockpiles.append(stockpiles_type_1_item)

        spit_cards: list[int] | list[list[str]]
        if isinstance(self.spit_cards, list):
            spit_cards = []
            for spit_cards_type_0_item_data in self.spit_cards:
                spit_cards_type_0_item = spit_cards_type_0_item_data

                spit_cards.append(spit_cards_type_0_item)

        else:
            spit_cards = self.spit_cards

        at = self.at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "type": type_,
                "round": round_,
                "nonces": nonces,
                "stockpiles": stockpiles,
                "spit_cards": spit_cards,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spit_stockpile import SpitStockpile  # noqa: PLC0415

        d = dict(src_dict)
        version = d.pop("version")

        type_ = cast(Literal["spit_dealt"], d.pop("type"))
        if type_ != "spit_dealt":
            raise ValueError(f"type must match const 'spit_dealt', got '{type_}'")

        round_ = d.pop("round")

        nonces = cast(list[int], d.pop("nonces"))

        def _parse_stockpiles(data: object) -> list[list[list[str]]] | list[list[SpitStockpile]]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                stockpiles_type_0 = []
                _stockpiles_type_0 = data
                for stockpiles_type_0_item_data in _stockpiles_type_0:
                    stockpiles_type_0_item = []
                    _stockpiles_type_0_item = stockpiles_type_0_item_data
                    for stockpiles_type_0_item_item_data in _stockpiles_type_0_item:
                        stockpiles_type_0_item_item = cast(
                            list[str], stockpiles_type_0_item_item_data
                        )

                        stockpiles_type_0_item.append(stockpiles_type_0_item_item)

                    stockpiles_type_0.append(stockpiles_type_0_item)

                return stockpiles_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            stockpiles_type_1 = []
            _stockpiles_type_1 = data
            for stockpiles_type_1_item_data in _stockpiles_type_1:
                stockpiles_type_1_item = []
                _stockpiles_type_1_item = stockpiles_type_1_item_data
                for stockpiles_type_1_item_item_data in _stockpiles_type_1_item:
                    stockpiles_type_1_item_item = SpitStockpile.from_dict(
                        stockpiles_type_1_item_item_data
                    )

                    stockpiles_type_1_item.append(stockpiles_type_1_item_item)

                stockpiles_type_1.append(stockpiles_type_1_item)

            return stockpiles_type_1

        stockpiles = _parse_stockpiles(d.pop("stockpiles"))

        def _parse_spit_cards(data: object) -> list[int] | list[list[str]]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                spit_cards_type_0 = []
                _spit_cards_type_0 = data
                for spit_cards_type_0_item_data in _spit_cards_type_0:
                    spit_cards_type_0_item = cast(list[str], spit_cards_type_0_item_data)

                    spit_cards_type_0.append(spit_cards_type_0_item)

                return spit_cards_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            spit_cards_type_1 = cast(list[int], data)

            return spit_cards_type_1

        spit_cards = _parse_spit_cards(d.pop("spit_cards"))

        at = d.pop("at")

        spit_dealt_event = cls(
            version=version,
            type_=type_,
            round_=round_,
            nonces=nonces,
            stockpiles=stockpiles,
            spit_cards=spit_cards,
            at=at,
        )

        spit_dealt_event.additional_properties = d
        return spit_dealt_event

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
