"""Contains all the data models used in inputs/outputs"""

from .aborted import Aborted
from .aborted_by import AbortedBy
from .acted import Acted
from .audit import Audit
from .card_drawn_event import CardDrawnEvent
from .card_moved_event import CardMovedEvent
from .card_played_event import CardPlayedEvent
from .card_turned_up_event import CardTurnedUpEvent
from .centre_started_event import CentreStartedEvent
from .create_game import CreateGame
from .create_game_game import CreateGameGame
from .create_game_kind import CreateGameKind
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
from .event_message import EventMessage
from .event_message_type import EventMessageType
from .events import Events
from .events_status import EventsStatus
from .game_aborted_event import GameAbortedEvent
from .game_created_event import GameCreatedEvent
from .game_created_event_options import GameCreatedEventOptions
from .game_ended_event import GameEndedEvent
from .game_event_notification import GameEventNotification
from .game_finished_data import GameFinishedData
from .game_finished_data_status import GameFinishedDataStatus
from .game_finished_notification import GameFinishedNotification
from .game_scored_event import GameScoredEvent
from .game_started_data import GameStartedData
from .game_started_data_players_item import GameStartedDataPlayersItem
from .game_started_notification import GameStartedNotification
from .health import Health
from .join import Join
from .join_kind import JoinKind
from .leader_row import LeaderRow
from .leaderboard import Leaderboard
from .leaderboard_game import LeaderboardGame
from .list_games_game import ListGamesGame
from .list_games_kind import ListGamesKind
from .list_games_status import ListGamesStatus
from .lobby import Lobby
from .lobby_game import LobbyGame
from .lobby_game_status import LobbyGameStatus
from .lobby_player import LobbyPlayer
from .lobby_player_player_type_0 import LobbyPlayerPlayerType0
from .options import Options
from .options_pile_choice import OptionsPileChoice
from .options_side_piles import OptionsSidePiles
from .options_stockpiles import OptionsStockpiles
from .pile_chosen_event import PileChosenEvent
from .pile_slapped_event import PileSlappedEvent
from .piles_taken_event import PilesTakenEvent
from .player_games import PlayerGames
from .player_profile import PlayerProfile
from .player_profile_ratings import PlayerProfileRatings
from .player_ready_event import PlayerReadyEvent
from .player_ref import PlayerRef
from .player_resigned_event import PlayerResignedEvent
from .problem import Problem
from .problem_errors import ProblemErrors
from .rating import Rating
from .rematch import Rematch
from .rematch_status import RematchStatus
from .round_ended_event import RoundEndedEvent
from .rules_check import RulesCheck
from .rules_check_deals_item import RulesCheckDealsItem
from .seat_joined_data import SeatJoinedData
from .seat_joined_data_kind import SeatJoinedDataKind
from .seat_joined_notification import SeatJoinedNotification
from .seat_taken_event import SeatTakenEvent
from .seated import Seated
from .seek import Seek
from .seek_game import SeekGame
from .seek_kind import SeekKind
from .seek_state import SeekState
from .seek_state_status import SeekStateStatus
from .side_cards_turned_event import SideCardsTurnedEvent
from .side_piles_rebuilt_event import SidePilesRebuiltEvent
from .speed_centre_pile import SpeedCentrePile
from .speed_centre_pile_cards import SpeedCentrePileCards
from .speed_dealt_event import SpeedDealtEvent
from .speed_draw_action import SpeedDrawAction
from .speed_play_action import SpeedPlayAction
from .speed_player import SpeedPlayer
from .speed_player_player_type_0 import SpeedPlayerPlayerType0
from .speed_ready_action import SpeedReadyAction
from .speed_resign_action import SpeedResignAction
from .speed_side_pile import SpeedSidePile
from .speed_side_pile_cards import SpeedSidePileCards
from .speed_spit_action import SpeedSpitAction
from .speed_state import SpeedState
from .speed_state_rematch_type_0 import SpeedStateRematchType0
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
from .spit_player_player_type_0 import SpitPlayerPlayerType0
from .spit_ready_action import SpitReadyAction
from .spit_resign_action import SpitResignAction
from .spit_slap_action import SpitSlapAction
from .spit_spit_action import SpitSpitAction
from .spit_state import SpitState
from .spit_state_rematch_type_0 import SpitStateRematchType0
from .spit_state_status import SpitStateStatus
from .spit_stockpile import SpitStockpile
from .spit_stockpile_cards import SpitStockpileCards
from .spit_turn_up_action import SpitTurnUpAction
from .ticket import Ticket
from .view_message import ViewMessage
from .view_message_type import ViewMessageType
from .webhook import Webhook
from .webhook_events import WebhookEvents
from .webhook_info import WebhookInfo

__all__ = (
    "Aborted",
    "AbortedBy",
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
    "CreateGameKind",
    "CreateGameOpponent",
    "CreateGameSeat0",
    "Deadline",
    "DeadlineExpiredEvent",
    "DeadlineRule",
    "DealCheck",
    "Deliveries",
    "Delivery",
    "EventMessage",
    "EventMessageType",
    "Events",
    "EventsStatus",
    "GameAbortedEvent",
    "GameCreatedEvent",
    "GameCreatedEventOptions",
    "GameEndedEvent",
    "GameEventNotification",
    "GameFinishedData",
    "GameFinishedDataStatus",
    "GameFinishedNotification",
    "GameScoredEvent",
    "GameStartedData",
    "GameStartedDataPlayersItem",
    "GameStartedNotification",
    "Health",
    "Join",
    "JoinKind",
    "Leaderboard",
    "LeaderboardGame",
    "LeaderRow",
    "ListGamesGame",
    "ListGamesKind",
    "ListGamesStatus",
    "Lobby",
    "LobbyGame",
    "LobbyGameStatus",
    "LobbyPlayer",
    "LobbyPlayerPlayerType0",
    "Options",
    "OptionsPileChoice",
    "OptionsSidePiles",
    "OptionsStockpiles",
    "PileChosenEvent",
    "PileSlappedEvent",
    "PilesTakenEvent",
    "PlayerGames",
    "PlayerProfile",
    "PlayerProfileRatings",
    "PlayerReadyEvent",
    "PlayerRef",
    "PlayerResignedEvent",
    "Problem",
    "ProblemErrors",
    "Rating",
    "Rematch",
    "RematchStatus",
    "RoundEndedEvent",
    "RulesCheck",
    "RulesCheckDealsItem",
    "Seated",
    "SeatJoinedData",
    "SeatJoinedDataKind",
    "SeatJoinedNotification",
    "SeatTakenEvent",
    "Seek",
    "SeekGame",
    "SeekKind",
    "SeekState",
    "SeekStateStatus",
    "SideCardsTurnedEvent",
    "SidePilesRebuiltEvent",
    "SpeedCentrePile",
    "SpeedCentrePileCards",
    "SpeedDealtEvent",
    "SpeedDrawAction",
    "SpeedPlayAction",
    "SpeedPlayer",
    "SpeedPlayerPlayerType0",
    "SpeedReadyAction",
    "SpeedResignAction",
    "SpeedSidePile",
    "SpeedSidePileCards",
    "SpeedSpitAction",
    "SpeedState",
    "SpeedStateRematchType0",
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
    "SpitPlayerPlayerType0",
    "SpitReadyAction",
    "SpitResignAction",
    "SpitSlapAction",
    "SpitSpitAction",
    "SpitState",
    "SpitStateRematchType0",
    "SpitStateStatus",
    "SpitStockpile",
    "SpitStockpileCards",
    "SpitTurnUpAction",
    "Ticket",
    "ViewMessage",
    "ViewMessageType",
    "Webhook",
    "WebhookEvents",
    "WebhookInfo",
)
