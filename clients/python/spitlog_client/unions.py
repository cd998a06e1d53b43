"""The spec's discriminated unions, made by clients/generate.py from openapi.yaml:
each as a type alias of its members' classes, and as a map from the discriminator's
value to the class (``EVENT_TYPES["card_played"]`` is ``CardPlayedEvent``)."""

from typing import TypeAlias

from .models import (
    CardDrawnEvent,
    CardMovedEvent,
    CardPlayedEvent,
    CardTurnedUpEvent,
    CentreStartedEvent,
    DeadlineExpiredEvent,
    GameAbortedEvent,
    GameCreatedEvent,
    GameEndedEvent,
    GameEventNotification,
    GameFinishedNotification,
    GameScoredEvent,
    GameStartedNotification,
    PileChosenEvent,
    PileSlappedEvent,
    PilesTakenEvent,
    PlayerReadyEvent,
    PlayerResignedEvent,
    RoundEndedEvent,
    SeatJoinedNotification,
    SeatTakenEvent,
    SideCardsTurnedEvent,
    SidePilesRebuiltEvent,
    SpeedDealtEvent,
    SpeedDrawAction,
    SpeedPlayAction,
    SpeedReadyAction,
    SpeedResignAction,
    SpeedSpitAction,
    SpeedState,
    SpitCalledEvent,
    SpitCardsTurnedEvent,
    SpitChooseAction,
    SpitDealtEvent,
    SpitMoveAction,
    SpitPlayAction,
    SpitReadyAction,
    SpitResignAction,
    SpitSlapAction,
    SpitSpitAction,
    SpitState,
    SpitTurnUpAction,
)

State: TypeAlias = SpitState | SpeedState

SpitAction: TypeAlias = (
    SpitPlayAction
    | SpitTurnUpAction
    | SpitMoveAction
    | SpitSpitAction
    | SpitSlapAction
    | SpitChooseAction
    | SpitReadyAction
    | SpitResignAction
)

SpeedAction: TypeAlias = (
    SpeedPlayAction | SpeedDrawAction | SpeedSpitAction | SpeedReadyAction | SpeedResignAction
)

Event: TypeAlias = (
    GameCreatedEvent
    | SeatTakenEvent
    | SpitDealtEvent
    | PlayerReadyEvent
    | SpitCardsTurnedEvent
    | CardPlayedEvent
    | CardTurnedUpEvent
    | CardMovedEvent
    | SpitCalledEvent
    | RoundEndedEvent
    | PileSlappedEvent
    | PileChosenEvent
    | PilesTakenEvent
    | SpeedDealtEvent
    | CentreStartedEvent
    | CardDrawnEvent
    | SideCardsTurnedEvent
    | SidePilesRebuiltEvent
    | GameScoredEvent
    | DeadlineExpiredEvent
    | PlayerResignedEvent
    | GameEndedEvent
    | GameAbortedEvent
)

Notification: TypeAlias = (
    SeatJoinedNotification
    | GameStartedNotification
    | GameFinishedNotification
    | GameEventNotification
)

STATE_GAMES: dict[str, type[State]] = {"spit": SpitState, "speed": SpeedState}

SPIT_ACTION_TYPES: dict[str, type[SpitAction]] = {
    "play": SpitPlayAction,
    "turn_up": SpitTurnUpAction,
    "move": SpitMoveAction,
    "spit": SpitSpitAction,
    "slap": SpitSlapAction,
    "choose": SpitChooseAction,
    "ready": SpitReadyAction,
    "resign": SpitResignAction,
}

SPEED_ACTION_TYPES: dict[str, type[SpeedAction]] = {
    "play": SpeedPlayAction,
    "draw": SpeedDrawAction,
    "spit": SpeedSpitAction,
    "ready": SpeedReadyAction,
    "resign": SpeedResignAction,
}

EVENT_TYPES: dict[str, type[Event]] = {
    "game_created": GameCreatedEvent,
    "seat_taken": SeatTakenEvent,
    "spit_dealt": SpitDealtEvent,
    "player_ready": PlayerReadyEvent,
    "spit_cards_turned": SpitCardsTurnedEvent,
    "card_played": CardPlayedEvent,
    "card_turned_up": CardTurnedUpEvent,
    "card_moved": CardMovedEvent,
    "spit_called": SpitCalledEvent,
    "round_ended": RoundEndedEvent,
    "pile_slapped": PileSlappedEvent,
    "pile_chosen": PileChosenEvent,
    "piles_taken": PilesTakenEvent,
    "speed_dealt": SpeedDealtEvent,
    "centre_started": CentreStartedEvent,
    "card_drawn": CardDrawnEvent,
    "side_cards_turned": SideCardsTurnedEvent,
    "side_piles_rebuilt": SidePilesRebuiltEvent,
    "game_scored": GameScoredEvent,
    "deadline_expired": DeadlineExpiredEvent,
    "player_resigned": PlayerResignedEvent,
    "game_ended": GameEndedEvent,
    "game_aborted": GameAbortedEvent,
}

NOTIFICATION_TYPES: dict[str, type[Notification]] = {
    "seat.joined": SeatJoinedNotification,
    "game.started": GameStartedNotification,
    "game.finished": GameFinishedNotification,
    "game.event": GameEventNotification,
}

__all__ = [
    "EVENT_TYPES",
    "Event",
    "NOTIFICATION_TYPES",
    "Notification",
    "SPEED_ACTION_TYPES",
    "SPIT_ACTION_TYPES",
    "STATE_GAMES",
    "SpeedAction",
    "SpitAction",
    "State",
]
