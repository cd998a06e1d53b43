from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_message_type import EventMessageType

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


T = TypeVar("T", bound="EventMessage")


@_attrs_define
class EventMessage:
    """
    Attributes:
        type_ (EventMessageType):
        version (int): the event's version
        event (CardDrawnEvent | CardMovedEvent | CardPlayedEvent | CardTurnedUpEvent | CentreStartedEvent |
            DeadlineExpiredEvent | GameAbortedEvent | GameCreatedEvent | GameEndedEvent | GameScoredEvent | PileChosenEvent
            | PileSlappedEvent | PilesTakenEvent | PlayerReadyEvent | PlayerResignedEvent | RoundEndedEvent | SeatTakenEvent
            | SideCardsTurnedEvent | SidePilesRebuiltEvent | SpeedDealtEvent | SpitCalledEvent | SpitCardsTurnedEvent |
            SpitDealtEvent): An event of the log, by its `type` (a new type may appear: skip what you do not know).
    """

    type_: EventMessageType
    version: int
    event: (
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

        type_ = self.type_.value

        version = self.version

        event: dict[str, Any]
        if isinstance(self.event, GameCreatedEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, SeatTakenEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, SpitDealtEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, PlayerReadyEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, SpitCardsTurnedEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, CardPlayedEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, CardTurnedUpEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, CardMovedEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, SpitCalledEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, RoundEndedEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, PileSlappedEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, PileChosenEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, PilesTakenEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, SpeedDealtEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, CentreStartedEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, CardDrawnEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, SideCardsTurnedEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, SidePilesRebuiltEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, GameScoredEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, DeadlineExpiredEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, PlayerResignedEvent):
            event = self.event.to_dict()
        elif isinstance(self.event, GameEndedEvent):
            event = self.event.to_dict()
        else:
            event = self.event.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "version": version,
                "event": event,
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
        type_ = EventMessageType(d.pop("type"))

        version = d.pop("version")

        def _parse_event(
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

        event = _parse_event(d.pop("event"))

        event_message = cls(
            type_=type_,
            version=version,
            event=event,
        )

        event_message.additional_properties = d
        return event_message

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
