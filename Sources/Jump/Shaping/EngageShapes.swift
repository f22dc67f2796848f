import JumpCore

/// The JSON of jump_client_providers.
extension ProviderList {
    var json: JSON {
        ["sign_in": .array(signIn.map(\.signInJSON)), "sharing": .array(sharing.map(\.sharingJSON)),
         "hide_tagline": .bool(hideTagline)]
    }
}

extension EngageProvider {
    var signInJSON: JSON {
        [
            "name": .string(name), "friendly_name": .string(friendlyName), "requires_input": .bool(requiresInput),
            "input_prompt": .optional(inputPrompt), "input_label": .optional(inputLabel),
            "custom": .optional(custom?.rawValue),
        ]
    }

    var sharingJSON: JSON {
        ["name": .string(name), "friendly_name": .string(friendlyName), "properties": sharingProperties]
    }
}
