from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

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
    from ..models.speed_state import SpeedState
    from ..models.spit_called_event import SpitCalledEvent
    from ..models.spit_cards_turned_event import SpitCardsTurnedEvent
    from ..models.spit_dealt_event import SpitDealtEvent
    from ..models.spit_state import SpitState


T = TypeVar("T", bound="Acted")


@_attrs_define
class Acted:
    """
    Attributes:
        version (int):
        events (list[CardDrawnEvent | CardMovedEvent | CardPlayedEvent | CardTurnedUpEvent | CentreStartedEvent |
            DeadlineExpiredEvent | GameAbortedEvent | GameCreatedEvent | GameEndedEvent | GameScoredEvent | PileChosenEvent
            | PileSlappedEvent | PilesTakenEvent | PlayerReadyEvent | PlayerResignedEvent | RoundEndedEvent | SeatTakenEvent
            | SideCardsTurnedEvent | SidePilesRebuiltEvent | SpeedDealtEvent | SpitCalledEvent | SpitCardsTurnedEvent |
            SpitDealtEvent]): what the action made happen, as you may see it
        state (SpeedState | SpitState): A game's state as you may see it, by its `game`.
    """

    version: int
    events: list[
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
    ]
    state: SpeedState | SpitState
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
        from ..models.spit_state import SpitState  # noqa: PLC0415

        version = self.version

        events = []
        for events_item_data in self.events:
            events_item: dict[str, Any]
            if isinstance(events_item_data, GameCreatedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, SeatTakenEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, SpitDealtEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, PlayerReadyEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, SpitCardsTurnedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CardPlayedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CardTurnedUpEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CardMovedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, SpitCalledEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, RoundEndedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, PileSlappedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, PileChosenEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, PilesTakenEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, SpeedDealtEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CentreStartedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CardDrawnEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, SideCardsTurnedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, SidePilesRebuiltEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, GameScoredEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, DeadlineExpiredEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, PlayerResignedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, GameEndedEvent):
                events_item = events_item_data.to_dict()
            else:
                events_item = events_item_data.to_dict()

            events.append(events_item)

        state: dict[str, Any]
        if isinstance(self.state, SpitState):
            state = self.state.to_dict()
        else:
            state = self.state.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "events": events,
                "state": state,
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
        from ..models.speed_state import SpeedState  # noqa: PLC0415
        from ..models.spit_called_event import SpitCalledEvent  # noqa: PLC0415
        from ..models.spit_cards_turned_event import SpitCardsTurnedEvent  # noqa: PLC0415
        from ..models.spit_dealt_event import SpitDealtEvent  # noqa: PLC0415
        from ..models.spit_state import SpitState  # noqa: PLC0415

        d = dict(src_dict)
        version = d.pop("version")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:

            def _parse_events_item(
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

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)

        def _parse_state(data: object) -> SpeedState | SpitState:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_state_type_0 = SpitState.from_dict(data)

                return componentsschemas_state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_state_type_1 = SpeedState.from_dict(data)

            return componentsschemas_state_type_1

        state = _parse_state(d.pop("state"))

        acted = cls(
            version=version,
            events=events,
            state=state,
        )

        acted.additional_properties = d
        return acted

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
