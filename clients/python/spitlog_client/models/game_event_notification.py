from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.card_drawn_event import CardDrawnEvent
    from ..models.card_moved_event import CardMovedEvent
    from ..models.card_played_event import CardPlayedEvent
    from ..models.card_turned_up_event import CardTurnedUpEvent
    from ..models.centre_started_event import CentreStartedEvent
    from ..models.deadline_expired_event import DeadlineExpiredEvent
    from ..models.game_aborted_event import GameAbortedEvent
    from ..models.game_created_event import GameCreatedEvent
    from ..models.game_ended_event import GameEndedEvent
    from ..models.game_scored_event import GameScoredEvent
    from ..models.pile_chosen_event import PileChosenEvent
    from ..models.pile_slapped_event import PileSlappedEvent
    from ..models.piles_taken_event import PilesTakenEvent
    from ..models.player_ready_event import PlayerReadyEvent
    from ..models.player_resigned_event import PlayerResignedEvent
    from ..models.round_ended_event import RoundEndedEvent
    from ..models.seat_taken_event import SeatTakenEvent
    from ..models.side_cards_turned_event import SideCardsTurnedEvent
    from ..models.side_piles_rebuilt_event import SidePilesRebuiltEvent
    from ..models.speed_dealt_event import SpeedDealtEvent
    from ..models.spit_called_event import SpitCalledEvent
    from ..models.spit_cards_turned_event import SpitCardsTurnedEvent
    from ..models.spit_dealt_event import SpitDealtEvent


T = TypeVar("T", bound="GameEventNotification")


@_attrs_define
class GameEventNotification:
    """
    Attributes:
        id (str): `evt_<game id>_<version>_<n>`, the same at every try of one notification (delivery is at least once:
            drop an id you have seen)
        created (int): when its event happened, in whole seconds since the epoch
        game_id (str):
        game (str): the game's kind (`spit`, `speed`)
        version (int): the place in the game's log of the event it tells of (1 = first)
        type_ (Literal['game.event']):  Default: 'game.event'.
        data (CardDrawnEvent | CardMovedEvent | CardPlayedEvent | CardTurnedUpEvent | CentreStartedEvent |
            DeadlineExpiredEvent | GameAbortedEvent | GameCreatedEvent | GameEndedEvent | GameScoredEvent | PileChosenEvent
            | PileSlappedEvent | PilesTakenEvent | PlayerReadyEvent | PlayerResignedEvent | RoundEndedEvent | SeatTakenEvent
            | SideCardsTurnedEvent | SidePilesRebuiltEvent | SpeedDealtEvent | SpitCalledEvent | SpitCardsTurnedEvent |
            SpitDealtEvent): An event of the log, by its `type` (a new type may appear: skip what you do not know).
    """

    id: str
    created: int
    game_id: str
    game: str
    version: int
    data: (
        CardDrawnEvent
        | CardMovedEvent
        | CardPlayedEvent
        | CardTurnedUpEvent
        | CentreStartedEvent
        | DeadlineExpiredEvent
        | GameAbortedEvent
        | GameCreatedEvent
        | GameEndedEvent
        | GameScoredEvent
        | PileChosenEvent
        | PileSlappedEvent
        | PilesTakenEvent
        | PlayerReadyEvent
        | PlayerResignedEvent
        | RoundEndedEvent
        | SeatTakenEvent
        | SideCardsTurnedEvent
        | SidePilesRebuiltEvent
        | SpeedDealtEvent
        | SpitCalledEvent
        | SpitCardsTurnedEvent
        | SpitDealtEvent
    )
    type_: Literal["game.event"] = "game.event"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_drawn_event import CardDrawnEvent  # noqa: PLC0415
        from ..models.card_moved_event import CardMovedEvent  # noqa: PLC0415
        from ..models.card_played_event import CardPlayedEvent  # noqa: PLC0415
        from ..models.card_turned_up_event import CardTurnedUpEvent  # noqa: PLC0415
        from ..models.centre_started_event import CentreStartedEvent  # noqa: PLC0415
        from ..models.deadline_expired_event import DeadlineExpiredEvent  # noqa: PLC0415
        from ..models.game_created_event import GameCreatedEvent  # noqa: PLC0415
        from ..models.game_ended_event import GameEndedEvent  # noqa: PLC0415
        from ..models.game_scored_event import GameScoredEvent  # noqa: PLC0415
        from ..models.pile_chosen_event import PileChosenEvent  # noqa: PLC0415
        from ..models.pile_slapped_event import PileSlappedEvent  # noqa: PLC0415
        from ..models.piles_taken_event import PilesTakenEvent  # noqa: PLC0415
        from ..models.player_ready_event import PlayerReadyEvent  # noqa: PLC0415
        from ..models.player_resigned_event import PlayerResignedEvent  # noqa: PLC0415
        from ..models.round_ended_event import RoundEndedEvent  # noqa: PLC0415
        from ..models.seat_taken_event import SeatTakenEvent  # noqa: PLC0415
        from ..models.side_cards_turned_event import SideCardsTurnedEvent  # noqa: PLC0415
        from ..models.side_piles_rebuilt_event import SidePilesRebuiltEvent  # noqa: PLC0415
        from ..models.speed_dealt_event import SpeedDealtEvent  # noqa: PLC0415
        from ..models.spit_called_event import SpitCalledEvent  # noqa: PLC0415
        from ..models.spit_cards_turned_event import SpitCardsTurnedEvent  # noqa: PLC0415
        from ..models.spit_dealt_event import SpitDealtEvent  # noqa: PLC0415

        id = self.id

        created = self.created

        game_id = self.game_id

        game = self.game

        version = self.version

        type_ = self.type_

        data: dict[str, Any]
        if isinstance(self.data, GameCreatedEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, SeatTakenEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, SpitDealtEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, PlayerReadyEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, SpitCardsTurnedEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, CardPlayedEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, CardTurnedUpEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, CardMovedEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, SpitCalledEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, RoundEndedEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, PileSlappedEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, PileChosenEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, PilesTakenEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, SpeedDealtEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, CentreStartedEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, CardDrawnEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, SideCardsTurnedEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, SidePilesRebuiltEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, GameScoredEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, DeadlineExpiredEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, PlayerResignedEvent):
            data = self.data.to_dict()
        elif isinstance(self.data, GameEndedEvent):
            data = self.data.to_dict()
        else:
            data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "created": created,
                "game_id": game_id,
                "game": game,
                "version": version,
                "type": type_,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_drawn_event import CardDrawnEvent  # noqa: PLC0415
        from ..models.card_moved_event import CardMovedEvent  # noqa: PLC0415
        from ..models.card_played_event import CardPlayedEvent  # noqa: PLC0415
        from ..models.card_turned_up_event import CardTurnedUpEvent  # noqa: PLC0415
        from ..models.centre_started_event import CentreStartedEvent  # noqa: PLC0415
        from ..models.deadline_expired_event import DeadlineExpiredEvent  # noqa: PLC0415
        from ..models.game_aborted_event import GameAbortedEvent  # noqa: PLC0415
        from ..models.game_created_event import GameCreatedEvent  # noqa: PLC0415
        from ..models.game_ended_event import GameEndedEvent  # noqa: PLC0415
        from ..models.game_scored_event import GameScoredEvent  # noqa: PLC0415
        from ..models.pile_chosen_event import PileChosenEvent  # noqa: PLC0415
        from ..models.pile_slapped_event import PileSlappedEvent  # noqa: PLC0415
        from ..models.piles_taken_event import PilesTakenEvent  # noqa: PLC0415
        from ..models.player_ready_event import PlayerReadyEvent  # noqa: PLC0415
        from ..models.player_resigned_event import PlayerResignedEvent  # noqa: PLC0415
        from ..models.round_ended_event import RoundEndedEvent  # noqa: PLC0415
        from ..models.seat_taken_event import SeatTakenEvent  # noqa: PLC0415
        from ..models.side_cards_turned_event import SideCardsTurnedEvent  # noqa: PLC0415
        from ..models.side_piles_rebuilt_event import SidePilesRebuiltEvent  # noqa: PLC0415
        from ..models.speed_dealt_event import SpeedDealtEvent  # noqa: PLC0415
        from ..models.spit_called_event import SpitCalledEvent  # noqa: PLC0415
        from ..models.spit_cards_turned_event import SpitCardsTurnedEvent  # noqa: PLC0415
        from ..models.spit_dealt_event import SpitDealtEvent  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        created = d.pop("created")

        game_id = d.pop("game_id")

        game = d.pop("game")

        version = d.pop("version")

        type_ = cast(Literal["game.event"], d.pop("type"))
        if type_ != "game.event":
            raise ValueError(f"type must match const 'game.event', got '{type_}'")

        def _parse_data(
            data: object,
        ) -> (
            CardDrawnEvent
            | CardMovedEvent
            | CardPlayedEvent
            | CardTurnedUpEvent
            | CentreStartedEvent
            | DeadlineExpiredEvent
            | GameAbortedEvent
            | GameCreatedEvent
            | GameEndedEvent
            | GameScoredEvent
            | PileChosenEvent
            | PileSlappedEvent
            | PilesTakenEvent
            | PlayerReadyEvent
            | PlayerResignedEvent
            | RoundEndedEvent
            | SeatTakenEvent
            | SideCardsTurnedEvent
            | SidePilesRebuiltEvent
            | SpeedDealtEvent
            | SpitCalledEvent
            | SpitCardsTurnedEvent
            | SpitDealtEvent
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_0 = GameCreatedEvent.from_dict(data)

                return componentsschemas_event_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_1 = SeatTakenEvent.from_dict(data)

                return componentsschemas_event_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_2 = SpitDealtEvent.from_dict(data)

                return componentsschemas_event_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_3 = PlayerReadyEvent.from_dict(data)

                return componentsschemas_event_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_4 = SpitCardsTurnedEvent.from_dict(data)

                return componentsschemas_event_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_5 = CardPlayedEvent.from_dict(data)

                return componentsschemas_event_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_6 = CardTurnedUpEvent.from_dict(data)

                return componentsschemas_event_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_7 = CardMovedEvent.from_dict(data)

                return componentsschemas_event_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_8 = SpitCalledEvent.from_dict(data)

                return componentsschemas_event_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_9 = RoundEndedEvent.from_dict(data)

                return componentsschemas_event_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_10 = PileSlappedEvent.from_dict(data)

                return componentsschemas_event_type_10
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_11 = PileChosenEvent.from_dict(data)

                return componentsschemas_event_type_11
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_12 = PilesTakenEvent.from_dict(data)

                return componentsschemas_event_type_12
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_13 = SpeedDealtEvent.from_dict(data)

                return componentsschemas_event_type_13
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_14 = CentreStartedEvent.from_dict(data)

                return componentsschemas_event_type_14
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_15 = CardDrawnEvent.from_dict(data)

                return componentsschemas_event_type_15
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_16 = SideCardsTurnedEvent.from_dict(data)

                return componentsschemas_event_type_16
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_17 = SidePilesRebuiltEvent.from_dict(data)

                return componentsschemas_event_type_17
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_18 = GameScoredEvent.from_dict(data)

                return componentsschemas_event_type_18
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_19 = DeadlineExpiredEvent.from_dict(data)

                return componentsschemas_event_type_19
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_20 = PlayerResignedEvent.from_dict(data)

                return componentsschemas_event_type_20
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_21 = GameEndedEvent.from_dict(data)

                return componentsschemas_event_type_21
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_event_type_22 = GameAbortedEvent.from_dict(data)

            return componentsschemas_event_type_22

        data = _parse_data(d.pop("data"))

        game_event_notification = cls(
            id=id,
            created=created,
            game_id=game_id,
            game=game,
            version=version,
            type_=type_,
            data=data,
        )

        game_event_notification.additional_properties = d
        return game_event_notification

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
