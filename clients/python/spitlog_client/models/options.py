from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.options_pile_choice import OptionsPileChoice
from ..models.options_side_piles import OptionsSidePiles
from ..models.options_stockpiles import OptionsStockpiles
from ..types import UNSET, Unset

T = TypeVar("T", bound="Options")


@_attrs_define
class Options:
    """Table options, chosen when the game is created; options of the other game, unknown options and values out of range
    are a 400.

        Attributes:
            stockpiles (OptionsStockpiles | Unset): V-1: Spit: 5 stockpiles (1..5 cards) or 4 (1..4) (default 5; spit)
            pile_choice (OptionsPileChoice | Unset): V-2: Spit: slap for the smaller pile, or the player who cleared chooses
                (default 'slap'; spit)
            alternate_colors (bool | Unset): V-3: a card played must change colour (default False; spit, speed)
            side_piles (OptionsSidePiles | Unset): V-4: Speed: side piles of 10 cards (15 to each player) or 5 (20 each)
                (default 10; speed)
            target_score (int | Unset): Q-8: Speed: the match target (0: a single game) (default 0; speed)
            max_rounds (int | Unset): E-4: rounds (Speed: games) before the game ends (default 60; spit, speed)
            spit_grace_s (float | Unset): T-1: seconds before a stalemate is called for (default 3.0; spit, speed)
            ready_grace_s (float | Unset): T-2: seconds before a player is made ready (default 10.0; spit, speed)
            slap_grace_s (float | Unset): T-3: seconds before the piles are taken without a slap (default 3.0; spit, speed)
            idle_forfeit_s (float | Unset): T-4: seconds in all with a legal action, since your own last one, before you
                forfeit (a hosted bot's seat: before the game is aborted, T-6); at least 30 at a rated table (default 120.0;
                spit, speed)
            join_timeout_s (float | Unset): T-5: seconds before a game with an empty seat is aborted (default 600.0; spit,
                speed)
    """

    stockpiles: OptionsStockpiles | Unset = UNSET
    pile_choice: OptionsPileChoice | Unset = UNSET
    alternate_colors: bool | Unset = UNSET
    side_piles: OptionsSidePiles | Unset = UNSET
    target_score: int | Unset = UNSET
    max_rounds: int | Unset = UNSET
    spit_grace_s: float | Unset = UNSET
    ready_grace_s: float | Unset = UNSET
    slap_grace_s: float | Unset = UNSET
    idle_forfeit_s: float | Unset = UNSET
    join_timeout_s: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        stockpiles: int | Unset = UNSET
        if not isinstance(self.stockpiles, Unset):
            stockpiles = self.stockpiles.value

        pile_choice: str | Unset = UNSET
        if not isinstance(self.pile_choice, Unset):
            pile_choice = self.pile_choice.value

        alternate_colors = self.alternate_colors

        side_piles: int | Unset = UNSET
        if not isinstance(self.side_piles, Unset):
            side_piles = self.side_piles.value

        target_score = self.target_score

        max_rounds = self.max_rounds

        spit_grace_s = self.spit_grace_s

        ready_grace_s = self.ready_grace_s

        slap_grace_s = self.slap_grace_s

        idle_forfeit_s = self.idle_forfeit_s

        join_timeout_s = self.join_timeout_s

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if stockpiles is not UNSET:
            field_dict["stockpiles"] = stockpiles
        if pile_choice is not UNSET:
            field_dict["pile_choice"] = pile_choice
        if alternate_colors is not UNSET:
            field_dict["alternate_colors"] = alternate_colors
        if side_piles is not UNSET:
            field_dict["side_piles"] = side_piles
        if target_score is not UNSET:
            field_dict["target_score"] = target_score
        if max_rounds is not UNSET:
            field_dict["max_rounds"] = max_rounds
        if spit_grace_s is not UNSET:
            field_dict["spit_grace_s"] = spit_grace_s
        if ready_grace_s is not UNSET:
            field_dict["ready_grace_s"] = ready_grace_s
        if slap_grace_s is not UNSET:
            field_dict["slap_grace_s"] = slap_grace_s
        if idle_forfeit_s is not UNSET:
            field_dict["idle_forfeit_s"] = idle_forfeit_s
        if join_timeout_s is not UNSET:
            field_dict["join_timeout_s"] = join_timeout_s

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _stockpiles = d.pop("stockpiles", UNSET)
        stockpiles: OptionsStockpiles | Unset
        if isinstance(_stockpiles, Unset):
            stockpiles = UNSET
        else:
            stockpiles = OptionsStockpiles(_stockpiles)

        _pile_choice = d.pop("pile_choice", UNSET)
        pile_choice: OptionsPileChoice | Unset
        if isinstance(_pile_choice, Unset):
            pile_choice = UNSET
        else:
            pile_choice = OptionsPileChoice(_pile_choice)

        alternate_colors = d.pop("alternate_colors", UNSET)

        _side_piles = d.pop("side_piles", UNSET)
        side_piles: OptionsSidePiles | Unset
        if isinstance(_side_piles, Unset):
            side_piles = UNSET
        else:
            side_piles = OptionsSidePiles(_side_piles)

        target_score = d.pop("target_score", UNSET)

        max_rounds = d.pop("max_rounds", UNSET)

        spit_grace_s = d.pop("spit_grace_s", UNSET)

        ready_grace_s = d.pop("ready_grace_s", UNSET)

        slap_grace_s = d.pop("slap_grace_s", UNSET)

        idle_forfeit_s = d.pop("idle_forfeit_s", UNSET)

        join_timeout_s = d.pop("join_timeout_s", UNSET)

        options = cls(
            stockpiles=stockpiles,
            pile_choice=pile_choice,
            alternate_colors=alternate_colors,
            side_piles=side_piles,
            target_score=target_score,
            max_rounds=max_rounds,
            spit_grace_s=spit_grace_s,
            ready_grace_s=ready_grace_s,
            slap_grace_s=slap_grace_s,
            idle_forfeit_s=idle_forfeit_s,
            join_timeout_s=join_timeout_s,
        )

        return options
