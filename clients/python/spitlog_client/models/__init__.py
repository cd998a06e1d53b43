"""Contains all the data models used in inputs/outputs"""

from .acted import Acted
from .audit import Audit
from .card_drawn_event import CardDrawnEvent
from .card_moved_event import CardMovedEvent
from .card_played_event import CardPlayedEvent
from .card_turned_up_event import CardTurnedUpEvent
from .centre_started_event import CentreStartedEvent
from .create_game import CreateGame
from .create_game_game import CreateGameGame
from .create_game_opponent import CreateGameOpponent
from .create_game_seat_0 import CreateGameSeat0
from .created import Created
from .created_webhook import CreatedWebhook
from .deadline import Deadline
from .deadline_expired_event import DeadlineExpiredEvent
from .deadline_rule import DeadlineRule
from .deal_check import DealCheck
from .deliveries import Deliveries
from .delivery import Delivery
from .events import Events
from .events_status import EventsStatus
from .game_aborted_event import GameAbortedEvent
from .game_created_event import GameCreatedEvent
from .game_created_event_options import GameCreatedEventOptions
from .game_ended_event import GameEndedEvent
from .game_scored_event import GameScoredEvent
from .health import Health
from .join import Join
from .list_games_status import ListGamesStatus
from .lobby import Lobby
from .lobby_game import LobbyGame
from .lobby_game_status import LobbyGameStatus
from .lobby_player import LobbyPlayer
from .options import Options
from .options_pile_choice import OptionsPileChoice
from .options_side_piles import OptionsSidePiles
from .options_stockpiles import OptionsStockpiles
from .pile_chosen_event import PileChosenEvent
from .pile_slapped_event import PileSlappedEvent
from .piles_taken_event import PilesTakenEvent
from .player_ready_event import PlayerReadyEvent
from .player_resigned_event import PlayerResignedEvent
from .problem import Problem
from .problem_errors import ProblemErrors
from .round_ended_event import RoundEndedEvent
from .rules_check import RulesCheck
from .rules_check_deals_item import RulesCheckDealsItem
from .seat_taken_event import SeatTakenEvent
from .seated import Seated
from .side_cards_turned_event import SideCardsTurnedEvent
from .side_piles_rebuilt_event import SidePilesRebuiltEvent
from .speed_centre_pile import SpeedCentrePile
from .speed_centre_pile_cards import SpeedCentrePileCards
from .speed_dealt_event import SpeedDealtEvent
from .speed_draw_action import SpeedDrawAction
from .speed_play_action import SpeedPlayAction
from .speed_player import SpeedPlayer
from .speed_ready_action import SpeedReadyAction
from .speed_resign_action import SpeedResignAction
from .speed_side_pile import SpeedSidePile
from .speed_side_pile_cards import SpeedSidePileCards
from .speed_spit_action import SpeedSpitAction
from .speed_state import SpeedState
from .speed_state_status import SpeedStateStatus
from .spit_called_event import SpitCalledEvent
from .spit_cards_turned_event import SpitCardsTurnedEvent
from .spit_choose_action import SpitChooseAction
from .spit_dealt_event import SpitDealtEvent
from .spit_move_action import SpitMoveAction
from .spit_pile import SpitPile
from .spit_pile_cards import SpitPileCards
from .spit_play_action import SpitPlayAction
from .spit_player import SpitPlayer
from .spit_ready_action import SpitReadyAction
from .spit_resign_action import SpitResignAction
from .spit_slap_action import SpitSlapAction
from .spit_spit_action import SpitSpitAction
from .spit_state import SpitState
from .spit_state_status import SpitStateStatus
from .spit_stockpile import SpitStockpile
from .spit_stockpile_cards import SpitStockpileCards
from .spit_turn_up_action import SpitTurnUpAction
from .webhook import Webhook
from .webhook_events import WebhookEvents
from .webhook_info import WebhookInfo

__all__ = (
    "Acted",
    "Audit",
    "CardDrawnEvent",
    "CardMovedEvent",
    "CardPlayedEvent",
    "CardTurnedUpEvent",
    "CentreStartedEvent",
    "Created",
    "CreatedWebhook",
    "CreateGame",
    "CreateGameGame",
    "CreateGameOpponent",
    "CreateGameSeat0",
    "Deadline",
    "DeadlineExpiredEvent",
    "DeadlineRule",
    "DealCheck",
    "Deliveries",
    "Delivery",
    "Events",
    "EventsStatus",
    "GameAbortedEvent",
    "GameCreatedEvent",
    "GameCreatedEventOptions",
    "GameEndedEvent",
    "GameScoredEvent",
    "Health",
    "Join",
    "ListGamesStatus",
    "Lobby",
    "LobbyGame",
    "LobbyGameStatus",
    "LobbyPlayer",
    "Options",
    "OptionsPileChoice",
    "OptionsSidePiles",
    "OptionsStockpiles",
    "PileChosenEvent",
    "PileSlappedEvent",
    "PilesTakenEvent",
    "PlayerReadyEvent",
    "PlayerResignedEvent",
    "Problem",
    "ProblemErrors",
    "RoundEndedEvent",
    "RulesCheck",
    "RulesCheckDealsItem",
    "Seated",
    "SeatTakenEvent",
    "SideCardsTurnedEvent",
    "SidePilesRebuiltEvent",
    "SpeedCentrePile",
    "SpeedCentrePileCards",
    "SpeedDealtEvent",
    "SpeedDrawAction",
    "SpeedPlayAction",
    "SpeedPlayer",
    "SpeedReadyAction",
    "SpeedResignAction",
    "SpeedSidePile",
    "SpeedSidePileCards",
    "SpeedSpitAction",
    "SpeedState",
    "SpeedStateStatus",
    "SpitCalledEvent",
    "SpitCardsTurnedEvent",
    "SpitChooseAction",
    "SpitDealtEvent",
    "SpitMoveAction",
    "SpitPile",
    "SpitPileCards",
    "SpitPlayAction",
    "SpitPlayer",
    "SpitReadyAction",
    "SpitResignAction",
    "SpitSlapAction",
    "SpitSpitAction",
    "SpitState",
    "SpitStateStatus",
    "SpitStockpile",
    "SpitStockpileCards",
    "SpitTurnUpAction",
    "Webhook",
    "WebhookEvents",
    "WebhookInfo",
)
