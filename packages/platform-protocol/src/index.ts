export {
  ACTIVITY_LOG_ACTIONS,
  type ActivityLogAction,
  AGENT_ACTIVITY_LOG_ACTIONS,
  type AgentActivityLogAction,
  isActivityLogAction,
} from './activity-log-actions';
