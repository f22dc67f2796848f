/// Server-side messages that do not come from a flow's validation rules (those carry their own text).
enum Message: Sendable {
    case invalidCredentials
    case emailInUse
    case usernameInUse
    case valueInUse
    case required
    case invalidValue
    case invalidDate
    case tooLong
    case incorrectPassword
    case noAccountForEmail

    func text(_ locale: MessageLocale) -> String {
        switch locale {
        case .enUS: return english
        case .frFR: return french
        }
    }

    private var english: String {
        switch self {
        case .invalidCredentials: return "Incorrect username or password."
        case .emailInUse: return "Email address is already in use."
        case .usernameInUse: return "Username is already in use."
        case .valueInUse: return "This value is already in use."
        case .required: return "This field is required."
        case .invalidValue: return "This value is not valid."
        case .invalidDate: return "Please enter a valid date."
        case .tooLong: return "This value is too long."
        case .incorrectPassword: return "The current password is incorrect."
        case .noAccountForEmail: return "We could not find an account with that email address."
        }
    }

    private var french: String {
        switch self {
        case .invalidCredentials: return "Nom d’utilisateur ou mot de passe incorrect."
        case .emailInUse: return "Cette adresse e-mail est déjà utilisée."
        case .usernameInUse: return "Ce nom d’utilisateur est déjà utilisé."
        case .valueInUse: return "Cette valeur est déjà utilisée."
        case .required: return "Ce champ est obligatoire."
        case .invalidValue: return "Cette valeur n’est pas valide."
        case .invalidDate: return "Veuillez saisir une date valide."
        case .tooLong: return "Cette valeur est trop longue."
        case .incorrectPassword: return "Le mot de passe actuel est incorrect."
        case .noAccountForEmail: return "Aucun compte ne correspond à cette adresse e-mail."
        }
    }
}
