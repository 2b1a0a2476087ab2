// The AI proxy (`agent.addAi`): provider configuration, the common chat shapes, errors.
export {
  AiProviderDefinition,
  createAiProvider,
  type AiProviderKind,
  type AiProviderOptions,
} from './ai-provider';
export type {
  ChatCompletion,
  ChatMessage,
  ChatRequest,
  ChatTextPart,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
} from './chat-completion';
export { AiError, isAiError, type AiErrorCode } from './ai-error';
