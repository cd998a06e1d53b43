from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.spit_state_status import SpitStateStatus

if TYPE_CHECKING:
    from ..models.aborted import Aborted
    from ..models.deadline import Deadline
    from ..models.options import Options
    from ..models.spit_choose_action import SpitChooseAction
    from ..models.spit_move_action import SpitMoveAction
    from ..models.spit_pile import SpitPile
    from ..models.spit_pile_cards import SpitPileCards
    from ..models.spit_play_action import SpitPlayAction
    from ..models.spit_player import SpitPlayer
    from ..models.spit_ready_action import SpitReadyAction
    from ..models.spit_resign_action import SpitResignAction
    from ..models.spit_slap_action import SpitSlapAction
    from ..models.spit_spit_action import SpitSpitAction
    from ..models.spit_state_rematch_type_0 import SpitStateRematchType0
    from ..models.spit_turn_up_action import SpitTurnUpAction


T = TypeVar("T", bound="SpitState")


@_attrs_define
class SpitState:
    """A game of Spit as you may see it (RULES H-1..H-4); every card once it is over.

    Attributes:
        id (str):
        game (Literal['spit']):  Default: 'spit'.
        version (int): events in the log so far
        status (SpitStateStatus):
        phase (str): where the game stands: waiting, ready, playing, stalemate, slap, choose, dealing, finished, aborted
        options (Options): Table options, chosen when the game is created; options of the other game, unknown options
            and values out of range are a 400.
        round_ (int):
        you (int | None): your seat; null for a spectator
        players (list[SpitPlayer]):
        stalemate (bool):
        legal_actions (list[SpitChooseAction | SpitMoveAction | SpitPlayAction | SpitReadyAction | SpitResignAction |
            SpitSlapAction | SpitSpitAction | SpitTurnUpAction]): every action body POST /actions accepts from you now;
            empty for a spectator
        deadline (Deadline | None): null when no timer runs
        winner (int | None): the winner's seat, once there is one
        result (None | str): the rule ID the game ended under (finished or aborted); null while it runs
        result_url (None | str): the entry of `result` in the rules reference (`/docs/rules#<ID>`); null while the game
            runs
        aborted (Aborted | None): null unless aborted under T-6
        commitment (str): sha256 hex of the server seed
        rated (bool): the table is rated: its game is rated (Glicko-2) if it ends with a result
        unrated (None | str): a rated table's game that was not rated, why: it ended with no result (`T-6`, `unplayed`,
            `E-5`: the rule or ruling it was aborted under) or was won inside its abort window, against a seat that had not
            moved (`unplayed`); null otherwise
        rematch (None | SpitStateRematchType0): a finished game's rematch; null before the end
        rematch_of (None | str): the game this one rematches
        solo_pile (int | None): S-3: the one spit pile left
        spit_piles (list[SpitPile | SpitPileCards]):
    """

    id: str
    version: int
    status: SpitStateStatus
    phase: str
    options: Options
    round_: int
    you: int | None
    players: list[SpitPlayer]
    stalemate: bool
    legal_actions: list[
        SpitChooseAction
        | SpitMoveAction
        | SpitPlayAction
        | SpitReadyAction
        | SpitResignAction
        | SpitSlapAction
        | SpitSpitAction
        | SpitTurnUpAction
    ]
    deadline: Deadline | None
    winner: int | None
    result: None | str
    result_url: None | str
    aborted: Aborted | None
    commitment: str
    rated: bool
    unrated: None | str
    rematch: None | SpitStateRematchType0
    rematch_of: None | str
    solo_pile: int | None
    spit_piles: list[SpitPile | SpitPileCards]
    game: Literal["spit"] = "spit"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.aborted import Aborted  # noqa: PLC0415
        from ..models.deadline import Deadline  # noqa: PLC0415
        from ..models.spit_choose_action import SpitChooseAction  # noqa: PLC0415
        from ..models.spit_move_action import SpitMoveAction  # noqa: PLC0415
        from ..models.spit_pile import SpitPile  # noqa: PLC0415
        from ..models.spit_play_action import SpitPlayAction  # noqa: PLC0415
        from ..models.spit_ready_action import SpitReadyAction  # noqa: PLC0415
        from ..models.spit_slap_action import SpitSlapAction  # noqa: PLC0415
        from ..models.spit_spit_action import SpitSpitAction  # noqa: PLC0415
        from ..models.spit_state_rematch_type_0 import SpitStateRematchType0  # noqa: PLC0415
        from ..models.spit_turn_up_action import SpitTurnUpAction  # noqa: PLC0415

        id = self.id

        game = self.game

        version = self.version

        status = self.status.value

        phase = self.phase

        options = self.options.to_dict()

        round_ = self.round_

        you: int | None
        you = self.you

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        stalemate = self.stalemate

        legal_actions = []
        for legal_actions_item_data in self.legal_actions:
            legal_actions_item: dict[str, Any]
            if isinstance(legal_actions_item_data, SpitPlayAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            elif isinstance(legal_actions_item_data, SpitTurnUpAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            elif isinstance(legal_actions_item_data, SpitMoveAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            elif isinstance(legal_actions_item_data, SpitSpitAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            elif isinstance(legal_actions_item_data, SpitSlapAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            elif isinstance(legal_actions_item_data, SpitChooseAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            elif isinstance(legal_actions_item_data, SpitReadyAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            else:
                legal_actions_item = legal_actions_item_data.to_dict()

            legal_actions.append(legal_actions_item)

        deadline: dict[str, Any] | None
        if isinstance(self.deadline, Deadline):
            deadline = self.deadline.to_dict()
        else:
            deadline = self.deadline

        winner: int | None
        winner = self.winner

        result: None | str
        result = self.result

        result_url: None | str
        result_url = self.result_url

        aborted: dict[str, Any] | None
        if isinstance(self.aborted, Aborted):
            aborted = self.aborted.to_dict()
        else:
            aborted = self.aborted

        commitment = self.commitment

        rated = self.rated

        unrated: None | str
        unrated = self.unrated

        rematch: dict[str, Any] | None
        if isinstance(self.rematch, SpitStateRematchType0):
            rematch = self.rematch.to_dict()
        else:
            rematch = self.rematch

        rematch_of: None | str
        rematch_of = self.rematch_of

        solo_pile: int | None
        solo_pile = self.solo_pile

        spit_piles = []
        for spit_piles_item_data in self.spit_piles:
            spit_piles_item: dict[str, Any]
            if isinstance(spit_piles_item_data, SpitPile):
                spit_piles_item = spit_piles_item_data.to_dict()
            else:
                spit_piles_item = spit_piles_item_data.to_dict()

            spit_piles.append(spit_piles_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "game": game,
                "version": version,
                "status": status,
                "phase": phase,
                "options": options,
                "round": round_,
                "you": you,
                "players": players,
                "stalemate": stalemate,
                "legal_actions": legal_actions,
                "deadline": deadline,
                "winner": winner,
                "result": result,
                "result_url": result_url,
                "aborted": aborted,
                "commitment": commitment,
                "rated": rated,
                "unrated": unrated,
                "rematch": rematch,
                "rematch_of": rematch_of,
                "solo_pile": solo_pile,
                "spit_piles": spit_piles,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.aborted import Aborted  # noqa: PLC0415
        from ..models.deadline import Deadline  # noqa: PLC0415
        from ..models.options import Options  # noqa: PLC0415
        from ..models.spit_choose_action import SpitChooseAction  # noqa: PLC0415
        from ..models.spit_move_action import SpitMoveAction  # noqa: PLC0415
        from ..models.spit_pile import SpitPile  # noqa: PLC0415
        from ..models.spit_pile_cards import SpitPileCards  # noqa: PLC0415
        from ..models.spit_play_action import SpitPlayAction  # noqa: PLC0415
        from ..models.spit_player import SpitPlayer  # noqa: PLC0415
        from ..models.spit_ready_action import SpitReadyAction  # noqa: PLC0415
        from ..models.spit_resign_action import SpitResignAction  # noqa: PLC0415
        from ..models.spit_slap_action import SpitSlapAction  # noqa: PLC0415
        from ..models.spit_spit_action import SpitSpitAction  # noqa: PLC0415
        from ..models.spit_state_rematch_type_0 import SpitStateRematchType0  # noqa: PLC0415
        from ..models.spit_turn_up_action import SpitTurnUpAction  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        game = cast(Literal["spit"], d.pop("game"))
        if game != "spit":
            raise ValueError(f"game must match const 'spit', got '{game}'")

        version = d.pop("version")

        status = SpitStateStatus(d.pop("status"))

        phase = d.pop("phase")

        options = Options.from_dict(d.pop("options"))

        round_ = d.pop("round")

        def _parse_you(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        you = _parse_you(d.pop("you"))

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = SpitPlayer.from_dict(players_item_data)

            players.append(players_item)

        stalemate = d.pop("stalemate")

        legal_actions = []
        _legal_actions = d.pop("legal_actions")
        for legal_actions_item_data in _legal_actions:

            def _parse_legal_actions_item(
                data: object,
            ) -> (
                SpitChooseAction
                | SpitMoveAction
                | SpitPlayAction
                | SpitReadyAction
                | SpitResignAction
                | SpitSlapAction
                | SpitSpitAction
                | SpitTurnUpAction
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_spit_action_type_0 = SpitPlayAction.from_dict(data)

                    return componentsschemas_spit_action_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_spit_action_type_1 = SpitTurnUpAction.from_dict(data)

                    return componentsschemas_spit_action_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_spit_action_type_2 = SpitMoveAction.from_dict(data)

                    return componentsschemas_spit_action_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_spit_action_type_3 = SpitSpitAction.from_dict(data)

                    return componentsschemas_spit_action_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_spit_action_type_4 = SpitSlapAction.from_dict(data)

                    return componentsschemas_spit_action_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_spit_action_type_5 = SpitChooseAction.from_dict(data)

                    return componentsschemas_spit_action_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_spit_action_type_6 = SpitReadyAction.from_dict(data)

                    return componentsschemas_spit_action_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_spit_action_type_7 = SpitResignAction.from_dict(data)

                return componentsschemas_spit_action_type_7

            legal_actions_item = _parse_legal_actions_item(legal_actions_item_data)

            legal_actions.append(legal_actions_item)

        def _parse_deadline(data: object) -> Deadline | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                deadline_type_0 = Deadline.from_dict(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Deadline | None, data)

        deadline = _parse_deadline(d.pop("deadline"))

        def _parse_winner(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        winner = _parse_winner(d.pop("winner"))

        def _parse_result(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result = _parse_result(d.pop("result"))

        def _parse_result_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result_url = _parse_result_url(d.pop("result_url"))

        def _parse_aborted(data: object) -> Aborted | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                aborted_type_0 = Aborted.from_dict(data)

                return aborted_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Aborted | None, data)

        aborted = _parse_aborted(d.pop("aborted"))

        commitment = d.pop("commitment")

        rated = d.pop("rated")

        def _parse_unrated(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        unrated = _parse_unrated(d.pop("unrated"))

        def _parse_rematch(data: object) -> None | SpitStateRematchType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rematch_type_0 = SpitStateRematchType0.from_dict(data)

                return rematch_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpitStateRematchType0, data)

        rematch = _parse_rematch(d.pop("rematch"))

        def _parse_rematch_of(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rematch_of = _parse_rematch_of(d.pop("rematch_of"))

        def _parse_solo_pile(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        solo_pile = _parse_solo_pile(d.pop("solo_pile"))

        spit_piles = []
        _spit_piles = d.pop("spit_piles")
        for spit_piles_item_data in _spit_piles:

            def _parse_spit_piles_item(data: object) -> SpitPile | SpitPileCards:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    spit_piles_item_type_0 = SpitPile.from_dict(data)

                    return spit_piles_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                spit_piles_item_type_1 = SpitPileCards.from_dict(data)

                return spit_piles_item_type_1

            spit_piles_item = _parse_spit_piles_item(spit_piles_item_data)

            spit_piles.append(spit_piles_item)

        spit_state = cls(
            id=id,
            game=game,
            version=version,
            status=status,
            phase=phase,
            options=options,
            round_=round_,
            you=you,
            players=players,
            stalemate=stalemate,
            legal_actions=legal_actions,
            deadline=deadline,
            winner=winner,
            result=result,
            result_url=result_url,
            aborted=aborted,
            commitment=commitment,
            rated=rated,
            unrated=unrated,
            rematch=rematch,
            rematch_of=rematch_of,
            solo_pile=solo_pile,
            spit_piles=spit_piles,
        )

        spit_state.additional_properties = d
        return spit_state

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
