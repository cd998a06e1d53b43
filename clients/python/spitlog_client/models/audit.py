from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.card_drawn_event import CardDrawnEvent
    from ..models.card_moved_event import CardMovedEvent
    from ..models.card_played_event import CardPlayedEvent
    from ..models.card_turned_up_event import CardTurnedUpEvent
    from ..models.centre_started_event import CentreStartedEvent
    from ..models.deadline_expired_event import DeadlineExpiredEvent
    from ..models.deal_check import DealCheck
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
    from ..models.rules_check import RulesCheck
    from ..models.seat_taken_event import SeatTakenEvent
    from ..models.side_cards_turned_event import SideCardsTurnedEvent
    from ..models.side_piles_rebuilt_event import SidePilesRebuiltEvent
    from ..models.speed_dealt_event import SpeedDealtEvent
    from ..models.spit_called_event import SpitCalledEvent
    from ..models.spit_cards_turned_event import SpitCardsTurnedEvent
    from ..models.spit_dealt_event import SpitDealtEvent


T = TypeVar("T", bound="Audit")


@_attrs_define
class Audit:
    """
    Attributes:
        id (str):
        game (str):
        status (str):
        version (int):
        winner (int | None):
        result (None | str):
        commitment (str):
        server_seed (str): hex; sha256 of its bytes = commitment
        commitment_verified (bool):
        client_seeds (list[str]):
        shuffle (str): the shuffle algorithm's version tag
        deals (list[DealCheck]):
        events (list[CardDrawnEvent | CardMovedEvent | CardPlayedEvent | CardTurnedUpEvent | CentreStartedEvent |
            DeadlineExpiredEvent | GameAbortedEvent | GameCreatedEvent | GameEndedEvent | GameScoredEvent | PileChosenEvent
            | PileSlappedEvent | PilesTakenEvent | PlayerReadyEvent | PlayerResignedEvent | RoundEndedEvent | SeatTakenEvent
            | SideCardsTurnedEvent | SidePilesRebuiltEvent | SpeedDealtEvent | SpitCalledEvent | SpitCardsTurnedEvent |
            SpitDealtEvent]): in full
        rules (RulesCheck):
        verified (bool): the commitment, every deal and every event check out
    """

    id: str
    game: str
    status: str
    version: int
    winner: int | None
    result: None | str
    commitment: str
    server_seed: str
    commitment_verified: bool
    client_seeds: list[str]
    shuffle: str
    deals: list[DealCheck]
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
    rules: RulesCheck
    verified: bool
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

        game = self.game

        status = self.status

        version = self.version

        winner: int | None
        winner = self.winner

        result: None | str
        result = self.result

        commitment = self.commitment

        server_seed = self.server_seed

        commitment_verified = self.commitment_verified

        client_seeds = self.client_seeds

        shuffle = self.shuffle

        deals = []
        for deals_item_data in self.deals:
            deals_item = deals_item_data.to_dict()
            deals.append(deals_item)

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

        rules = self.rules.to_dict()

        verified = self.verified

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "game": game,
                "status": status,
                "version": version,
                "winner": winner,
                "result": result,
                "commitment": commitment,
                "server_seed": server_seed,
                "commitment_verified": commitment_verified,
                "client_seeds": client_seeds,
                "shuffle": shuffle,
                "deals": deals,
                "events": events,
                "rules": rules,
                "verified": verified,
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
        from ..models.deal_check import DealCheck  # noqa: PLC0415
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
        from ..models.rules_check import RulesCheck  # noqa: PLC0415
        from ..models.seat_taken_event import SeatTakenEvent  # noqa: PLC0415
        from ..models.side_cards_turned_event import SideCardsTurnedEvent  # noqa: PLC0415
        from ..models.side_piles_rebuilt_event import SidePilesRebuiltEvent  # noqa: PLC0415
        from ..models.speed_dealt_event import SpeedDealtEvent  # noqa: PLC0415
        from ..models.spit_called_event import SpitCalledEvent  # noqa: PLC0415
        from ..models.spit_cards_turned_event import SpitCardsTurnedEvent  # noqa: PLC0415
        from ..models.spit_dealt_event import SpitDealtEvent  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        game = d.pop("game")

        status = d.pop("status")

        version = d.pop("version")

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

        commitment = d.pop("commitment")

        server_seed = d.pop("server_seed")

        commitment_verified = d.pop("commitment_verified")

        client_seeds = cast(list[str], d.pop("client_seeds"))

        shuffle = d.pop("shuffle")

        deals = []
        _deals = d.pop("deals")
        for deals_item_data in _deals:
            deals_item = DealCheck.from_dict(deals_item_data)

            deals.append(deals_item)

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

        rules = RulesCheck.from_dict(d.pop("rules"))

        verified = d.pop("verified")

        audit = cls(
            id=id,
            game=game,
            status=status,
            version=version,
            winner=winner,
            result=result,
            commitment=commitment,
            server_seed=server_seed,
            commitment_verified=commitment_verified,
            client_seeds=client_seeds,
            shuffle=shuffle,
            deals=deals,
            events=events,
            rules=rules,
            verified=verified,
        )

        audit.additional_properties = d
        return audit

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
