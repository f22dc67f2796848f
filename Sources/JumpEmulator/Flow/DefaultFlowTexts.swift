/// Labels and validation messages of the default flow, one set per locale.
struct DefaultFlowTexts: Sendable {
    var locale: MessageLocale
    var emailLabel: String
    var emailRequired: String
    var emailInvalid: String
    var usernameLabel: String
    var usernameRequired: String
    var usernameInvalid: String
    var passwordLabel: String
    var passwordRequired: String
    var newPasswordLabel: String
    var passwordTooShort: String
    var confirmPasswordLabel: String
    var confirmRequired: String
    var passwordsDiffer: String
    var displayNameLabel: String
    var displayNameTooLong: String
    var firstNameLabel: String
    var firstNameTooLong: String
    var lastNameLabel: String
    var lastNameTooLong: String
    var birthdateLabel: String
    var birthdateInvalid: String
    var aboutMeLabel: String
    var aboutMeTooLong: String

    static func texts(for locale: MessageLocale) -> DefaultFlowTexts {
        switch locale {
        case .enUS: return english
        case .frFR: return french
        }
    }

    static let english = DefaultFlowTexts(
        locale: .enUS,
        emailLabel: "Email address",
        emailRequired: "Email address is required.",
        emailInvalid: "Enter a valid email address.",
        usernameLabel: "Username",
        usernameRequired: "Username is required.",
        usernameInvalid: "Usernames are 3 to 32 letters, digits, dots, dashes or underscores.",
        passwordLabel: "Password",
        passwordRequired: "Password is required.",
        newPasswordLabel: "New password",
        passwordTooShort: "Password must be at least 8 characters long.",
        confirmPasswordLabel: "Confirm password",
        confirmRequired: "Please confirm your password.",
        passwordsDiffer: "Passwords do not match.",
        displayNameLabel: "Display name",
        displayNameTooLong: "Display name must be at most 64 characters long.",
        firstNameLabel: "First name",
        firstNameTooLong: "First name must be at most 64 characters long.",
        lastNameLabel: "Last name",
        lastNameTooLong: "Last name must be at most 64 characters long.",
        birthdateLabel: "Birthdate",
        birthdateInvalid: "Enter a valid birthdate in the past.",
        aboutMeLabel: "About me",
        aboutMeTooLong: "About me must be at most 1000 characters long.")

    static let french = DefaultFlowTexts(
        locale: .frFR,
        emailLabel: "Adresse e-mail",
        emailRequired: "L’adresse e-mail est obligatoire.",
        emailInvalid: "Saisissez une adresse e-mail valide.",
        usernameLabel: "Nom d’utilisateur",
        usernameRequired: "Le nom d’utilisateur est obligatoire.",
        usernameInvalid: "Le nom d’utilisateur comporte de 3 à 32 lettres, chiffres, points, tirets ou tirets bas.",
        passwordLabel: "Mot de passe",
        passwordRequired: "Le mot de passe est obligatoire.",
        newPasswordLabel: "Nouveau mot de passe",
        passwordTooShort: "Le mot de passe doit contenir au moins 8 caractères.",
        confirmPasswordLabel: "Confirmez le mot de passe",
        confirmRequired: "Veuillez confirmer votre mot de passe.",
        passwordsDiffer: "Les mots de passe ne correspondent pas.",
        displayNameLabel: "Nom affiché",
        displayNameTooLong: "Le nom affiché ne doit pas dépasser 64 caractères.",
        firstNameLabel: "Prénom",
        firstNameTooLong: "Le prénom ne doit pas dépasser 64 caractères.",
        lastNameLabel: "Nom de famille",
        lastNameTooLong: "Le nom de famille ne doit pas dépasser 64 caractères.",
        birthdateLabel: "Date de naissance",
        birthdateInvalid: "Saisissez une date de naissance valide, dans le passé.",
        aboutMeLabel: "À propos de moi",
        aboutMeTooLong: "Le texte « À propos de moi » ne doit pas dépasser 1000 caractères.")
}
