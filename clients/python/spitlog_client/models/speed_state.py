from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.speed_state_status import SpeedStateStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.aborted import Aborted
    from ..models.deadline import Deadline
    from ..models.options import Options
    from ..models.speed_centre_pile import SpeedCentrePile
    from ..models.speed_centre_pile_cards import SpeedCentrePileCards
    from ..models.speed_draw_action import SpeedDrawAction
    from ..models.speed_play_action import SpeedPlayAction
    from ..models.speed_player import SpeedPlayer
    from ..models.speed_ready_action import SpeedReadyAction
    from ..models.speed_resign_action import SpeedResignAction
    from ..models.speed_side_pile import SpeedSidePile
    from ..models.speed_side_pile_cards import SpeedSidePileCards
    from ..models.speed_spit_action import SpeedSpitAction
    from ..models.speed_state_rematch_type_0 import SpeedStateRematchType0


T = TypeVar("T", bound="SpeedState")


@_attrs_define
class SpeedState:
    """A game of Speed as you may see it (RULES H-1..H-4); every card once it is over.

    Attributes:
        id (str):
        game (Literal['speed']):  Default: 'speed'.
        version (int): events in the log so far
        status (SpeedStateStatus):
        phase (str): where the game stands: waiting, ready, playing, stalemate, slap, choose, dealing, finished, aborted
        options (Options): Table options, chosen when the game is created; options of the other game, unknown options
            and values out of range are a 400.
        round_ (int):
        you (int | None): your seat; null for a spectator
        players (list[SpeedPlayer]):
        stalemate (bool):
        legal_actions (list[SpeedDrawAction | SpeedPlayAction | SpeedReadyAction | SpeedResignAction |
            SpeedSpitAction]): every action body POST /actions accepts from you now; empty for a spectator
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
        rematch (None | SpeedStateRematchType0): a finished game's rematch; null before the end
        rematch_of (None | str): the game this one rematches
        scores (list[int]): per seat (Q-8)
        side_piles (list[SpeedSidePile | SpeedSidePileCards]):
        centre_piles (list[SpeedCentrePile | SpeedCentrePileCards]):
        middle (list[str] | Unset): after the game: the cards under the centre piles' first cards
    """

    id: str
    version: int
    status: SpeedStateStatus
    phase: str
    options: Options
    round_: int
    you: int | None
    players: list[SpeedPlayer]
    stalemate: bool
    legal_actions: list[
        SpeedDrawAction | SpeedPlayAction | SpeedReadyAction | SpeedResignAction | SpeedSpitAction
    ]
    deadline: Deadline | None
    winner: int | None
    result: None | str
    result_url: None | str
    aborted: Aborted | None
    commitment: str
    rated: bool
    unrated: None | str
    rematch: None | SpeedStateRematchType0
    rematch_of: None | str
    scores: list[int]
    side_piles: list[SpeedSidePile | SpeedSidePileCards]
    centre_piles: list[SpeedCentrePile | SpeedCentrePileCards]
    game: Literal["speed"] = "speed"
    middle: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.aborted import Aborted  # noqa: PLC0415
        from ..models.deadline import Deadline  # noqa: PLC0415
        from ..models.speed_centre_pile import SpeedCentrePile  # noqa: PLC0415
        from ..models.speed_draw_action import SpeedDrawAction  # noqa: PLC0415
        from ..models.speed_play_action import SpeedPlayAction  # noqa: PLC0415
        from ..models.speed_ready_action import SpeedReadyAction  # noqa: PLC0415
        from ..models.speed_side_pile import SpeedSidePile  # noqa: PLC0415
        from ..models.speed_spit_action import SpeedSpitAction  # noqa: PLC0415
        from ..models.speed_state_rematch_type_0 import SpeedStateRematchType0  # noqa: PLC0415

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
            if isinstance(legal_actions_item_data, SpeedPlayAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            elif isinstance(legal_actions_item_data, SpeedDrawAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            elif isinstance(legal_actions_item_data, SpeedSpitAction):
                legal_actions_item = legal_actions_item_data.to_dict()
            elif isinstance(legal_actions_item_data, SpeedReadyAction):
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
        if isinstance(self.rematch, SpeedStateRematchType0):
            rematch = self.rematch.to_dict()
        else:
            rematch = self.rematch

        rematch_of: None | str
        rematch_of = self.rematch_of

        scores = self.scores

        side_piles = []
        for side_piles_item_data in self.side_piles:
            side_piles_item: dict[str, Any]
            if isinstance(side_piles_item_data, SpeedSidePile):
                side_piles_item = side_piles_item_data.to_dict()
            else:
                side_piles_item = side_piles_item_data.to_dict()

            side_piles.append(side_piles_item)

        centre_piles = []
        for centre_piles_item_data in self.centre_piles:
            centre_piles_item: dict[str, Any]
            if isinstance(centre_piles_item_data, SpeedCentrePile):
                centre_piles_item = centre_piles_item_data.to_dict()
            else:
                centre_piles_item = centre_piles_item_data.to_dict()

            centre_piles.append(centre_piles_item)

        middle: list[str] | Unset = UNSET
        if not isinstance(self.middle, Unset):
            middle = self.middle

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
                "scores": scores,
                "side_piles": side_piles,
                "centre_piles": centre_piles,
            }
        )
        if middle is not UNSET:
            field_dict["middle"] = middle

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.aborted import Aborted  # noqa: PLC0415
        from ..models.deadline import Deadline  # noqa: PLC0415
        from ..models.options import Options  # noqa: PLC0415
        from ..models.speed_centre_pile import SpeedCentrePile  # noqa: PLC0415
        from ..models.speed_centre_pile_cards import SpeedCentrePileCards  # noqa: PLC0415
        from ..models.speed_draw_action import SpeedDrawAction  # noqa: PLC0415
        from ..models.speed_play_action import SpeedPlayAction  # noqa: PLC0415
        from ..models.speed_player import SpeedPlayer  # noqa: PLC0415
        from ..models.speed_ready_action import SpeedReadyAction  # noqa: PLC0415
        from ..models.speed_resign_action import SpeedResignAction  # noqa: PLC0415
        from ..models.speed_side_pile import SpeedSidePile  # noqa: PLC0415
        from ..models.speed_side_pile_cards import SpeedSidePileCards  # noqa: PLC0415
        from ..models.speed_spit_action import SpeedSpitAction  # noqa: PLC0415
        from ..models.speed_state_rematch_type_0 import SpeedStateRematchType0  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        game = cast(Literal["speed"], d.pop("game"))
        if game != "speed":
            raise ValueError(f"game must match const 'speed', got '{game}'")

        version = d.pop("version")

        status = SpeedStateStatus(d.pop("status"))

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
            players_item = SpeedPlayer.from_dict(players_item_data)

            players.append(players_item)

        stalemate = d.pop("stalemate")

        legal_actions = []
        _legal_actions = d.pop("legal_actions")
        for legal_actions_item_data in _legal_actions:

            def _parse_legal_actions_item(
                data: object,
            ) -> (
                SpeedDrawAction
                | SpeedPlayAction
                | SpeedReadyAction
                | SpeedResignAction
                | SpeedSpitAction
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_speed_action_type_0 = SpeedPlayAction.from_dict(data)

                    return componentsschemas_speed_action_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_speed_action_type_1 = SpeedDrawAction.from_dict(data)

                    return componentsschemas_speed_action_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_speed_action_type_2 = SpeedSpitAction.from_dict(data)

                    return componentsschemas_speed_action_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_speed_action_type_3 = SpeedReadyAction.from_dict(data)

                    return componentsschemas_speed_action_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_speed_action_type_4 = SpeedResignAction.from_dict(data)

                return componentsschemas_speed_action_type_4

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

        def _parse_rematch(data: object) -> None | SpeedStateRematchType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rematch_type_0 = SpeedStateRematchType0.from_dict(data)

                return rematch_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpeedStateRematchType0, data)

        rematch = _parse_rematch(d.pop("rematch"))

        def _parse_rematch_of(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rematch_of = _parse_rematch_of(d.pop("rematch_of"))

        scores = cast(list[int], d.pop("scores"))

        side_piles = []
        _side_piles = d.pop("side_piles")
        for side_piles_item_data in _side_piles:

            def _parse_side_piles_item(data: object) -> SpeedSidePile | SpeedSidePileCards:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    side_piles_item_type_0 = SpeedSidePile.from_dict(data)

                    return side_piles_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                side_piles_item_type_1 = SpeedSidePileCards.from_dict(data)

                return side_piles_item_type_1

            side_piles_item = _parse_side_piles_item(side_piles_item_data)

            side_piles.append(side_piles_item)

        centre_piles = []
        _centre_piles = d.pop("centre_piles")
        for centre_piles_item_data in _centre_piles:

            def _parse_centre_piles_item(data: object) -> SpeedCentrePile | SpeedCentrePileCards:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    centre_piles_item_type_0 = SpeedCentrePile.from_dict(data)

                    return centre_piles_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                centre_piles_item_type_1 = SpeedCentrePileCards.from_dict(data)

                return centre_piles_item_type_1

            centre_piles_item = _parse_centre_piles_item(centre_piles_item_data)

            centre_piles.append(centre_piles_item)

        middle = cast(list[str], d.pop("middle", UNSET))

        speed_state = cls(
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
            scores=scores,
            side_piles=side_piles,
            centre_piles=centre_piles,
            middle=middle,
        )

        speed_state.additional_properties = d
        return speed_state

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
